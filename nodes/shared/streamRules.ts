import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { explainResponse, problemSuffix } from './errors';

/** Filtered-stream rules (breadth.md): the path, and the refusals a 200 answer can carry. */
export const RULES_PATH = '/2/tweets/search/stream/rules';
export const MAX_RULE_LENGTH = 2048;

/** One line per refused rule: the problem, the rule value and the service's detail. */
export function ruleProblems(body: IDataObject): string[] {
	const errors = (Array.isArray(body?.errors) ? body.errors : []) as IDataObject[];
	return errors.map((e) => {
		const suffix = problemSuffix(e.type) ?? String(e.title ?? 'error');
		const value = e.value ? ` "${String(e.value)}"` : '';
		const id = e.id ? ` (rule ${String(e.id)})` : '';
		const details = Array.isArray(e.details) ? ` ${e.details.map(String).join('; ')}` : e.detail ? ` ${String(e.detail)}` : '';
		return `${suffix}${value}${id}:${details || ` ${String(e.title ?? '')}`}`.trim();
	});
}

/** The service's refusals (rule-cap, invalid-rules, duplicate-rules ...) explained, or undefined. */
export function ruleError(node: INode, body: IDataObject, phase: string, itemIndex?: number): NodeOperationError | undefined {
	const problems = ruleProblems(body);
	if (!problems.length) return undefined;
	const errors = body.errors as IDataObject[];
	const explained = explainResponse(400, { errors: [errors[0]] });
	return new NodeOperationError(node, `${phase}: ${explained.message}`, {
		itemIndex,
		description: [explained.description, ...problems].filter(Boolean).join('\n'),
	});
}
