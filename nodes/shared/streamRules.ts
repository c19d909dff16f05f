import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { explainResponse, problemSuffix, withErrorInfo } from './errors';

/**
 * Filtered-stream rules (GET/POST /2/tweets/search/stream/rules): the path, and the refusals the service
 * reports inside a 200 answer (invalid rules, duplicates, the rule cap).
 */
export const RULES_PATH = '/2/tweets/search/stream/rules';
export const MAX_RULE_LENGTH = 2048;

/** One line per refused rule: the problem, the rule value and the service's detail. */
export function ruleProblems(body: IDataObject): string[] {
	const errors = (Array.isArray(body?.errors) ? body.errors : []) as IDataObject[];
	return errors.map((e) => {
		const suffix = problemSuffix(e.type) ?? String(e.title ?? 'error');
		const value = e.value ? ` "${String(e.value)}"` : '';
		const id = e.id ? ` (rule ${String(e.id)})` : '';
		const details = Array.isArray(e.details)
			? ` ${e.details.map(String).join('; ')}`
			: e.detail
				? ` ${String(e.detail)}`
				: '';
		return `${suffix}${value}${id}:${details || ` ${String(e.title ?? '')}`}`.trim();
	});
}

/** The service's refusals (rule-cap, invalid-rules, duplicate-rules ...) explained, or undefined. */
export function ruleError(
	node: INode,
	body: IDataObject,
	phase: string,
	itemIndex?: number,
): NodeOperationError | undefined {
	const problems = ruleProblems(body);
	if (!problems.length) return undefined;
	const errors = body.errors as IDataObject[];
	const explained = explainResponse(400, { errors: [errors[0]] });
	const error = new NodeOperationError(node, `${phase}: ${explained.message}`, {
		itemIndex,
		description: [explained.description, ...problems].filter(Boolean).join('\n'),
	});
	// The refusal came inside a 200 answer: its Problem type identifies it.
	return withErrorInfo(error, { type: problemSuffix(errors[0].type) });
}

/** The Rules field (value + optional tag, several) of the stream-rule operations and the trigger. */
export function rulesProperty(
	displayOptions?: INodeProperties['displayOptions'],
	description?: string,
): INodeProperties {
	return {
		displayName: 'Rules',
		name: 'rules',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Rule',
		displayOptions,
		description,
		options: [
			{
				displayName: 'Rule',
				name: 'rule',
				values: [
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'from:n8n_io has:media -is:retweet',
						description:
							'The rule, in the search query syntax (up to 1,024 characters; 2,048 on Enterprise)',
					},
					{
						displayName: 'Tag',
						name: 'tag',
						type: 'string',
						default: '',
						description:
							'Optional label delivered with each matching post (cannot be changed later)',
					},
				],
			},
		],
	};
}

export interface StreamRule extends IDataObject {
	value: string;
	tag?: string;
}

/** The entries of the Rules field, checked; `fail` builds the error naming the field. */
export function readRules(value: unknown, fail: (message: string) => Error): StreamRule[] {
	const raw = ((value ?? {}) as IDataObject).rule as IDataObject[] | undefined;
	const rules: StreamRule[] = [];
	for (const [index, entry] of (raw ?? []).entries()) {
		const ruleValue = String(entry.value ?? '').trim();
		const tag = String(entry.tag ?? '').trim();
		if (!ruleValue) throw fail(`Rules #${index + 1}: Value is empty`);
		if (ruleValue.length > MAX_RULE_LENGTH)
			throw fail(`Rules #${index + 1}: Value is longer than ${MAX_RULE_LENGTH} characters`);
		rules.push(tag ? { value: ruleValue, tag } : { value: ruleValue });
	}
	if (!rules.length) throw fail('Rules: add at least one rule');
	return rules;
}
