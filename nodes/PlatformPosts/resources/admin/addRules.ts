import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { adminRequest, BEARER_NOTE } from './common';
import { readRules, rulesProperty } from '../../../shared/streamRules';
import { assertNoRuleErrors, RULES_PATH } from './rules';

const OP = 'addRules';

export const addRules: ItemOperation = {
	option: {
		name: 'Add Stream Rules',
		value: OP,
		description: `Add filtered-stream rules (a search query each, with an optional tag). The rules are first validated with a dry run; nothing is added when any is refused (invalid, duplicate, rule cap reached). Changes apply after about 20 seconds. ${BEARER_NOTE}.`,
		action: 'Add filtered stream rules',
	},
	properties: [rulesProperty()],
	options: [
		{
			displayName: 'Validate Only',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description: 'Whether to only check the rules (dry run) without adding them',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const rules = readRules(
			ctx.getNodeParameter('rules', itemIndex, {}),
			(message) =>
				new NodeOperationError(
					ctx.getNode(),
					`Invalid input in item ${itemIndex + 1}: ${message}`,
					{ itemIndex },
				),
		);
		const body = { add: rules };
		const check = await adminRequest.call(ctx, itemIndex, {
			method: 'POST',
			path: RULES_PATH,
			qs: { dry_run: true },
			body,
			// A dry run changes nothing: safe to retry.
			retryTransient: true,
		});
		assertNoRuleErrors(ctx, itemIndex, check, 'Rule validation failed, no rule was added');
		const dryRun = Boolean((ctx.getNodeParameter('options', itemIndex, {}) as IDataObject).dryRun);
		const response = dryRun
			? check
			: await adminRequest.call(ctx, itemIndex, {
					method: 'POST',
					path: RULES_PATH,
					body,
					unsafeFailureHint:
						'The rules may have been added: check List Stream Rules before adding them again.',
				});
		assertNoRuleErrors(ctx, itemIndex, response, 'The service refused rules');
		const summary = ((response.meta as IDataObject | undefined)?.summary ?? {}) as IDataObject;
		const created = (Array.isArray(response.data) ? response.data : []) as IDataObject[];
		if (!created.length) return { dry_run: dryRun, rules, summary };
		return created.map((rule) => ({ ...rule, ...(dryRun ? { dry_run: true } : {}) }));
	},
};
