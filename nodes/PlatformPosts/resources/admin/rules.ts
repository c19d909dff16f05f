import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { explainResponse, problemSuffix } from '../../../shared/errors';

/** Filtered-stream rules: the path, and the refusals a 200 answer can carry (breadth.md). */
export const RULES_PATH = '/2/tweets/search/stream/rules';

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

/** Fails with the service's refusals explained (rule-cap, invalid-rules, duplicate-rules ...). */
export function assertNoRuleErrors(ctx: IExecuteFunctions, itemIndex: number, body: IDataObject, phase: string): void {
	const problems = ruleProblems(body);
	if (!problems.length) return;
	const errors = body.errors as IDataObject[];
	const explained = explainResponse(400, { errors: [errors[0]] });
	throw new NodeOperationError(ctx.getNode(), `${phase}: ${explained.message}`, {
		itemIndex,
		description: [explained.description, ...problems].filter(Boolean).join('\n'),
	});
}
