import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { optionsCollection } from '../../common';
import { adminRequest, BEARER_NOTE } from './common';
import { MAX_RULE_LENGTH } from '../../../shared/streamRules';
import { assertNoRuleErrors, RULES_PATH } from './rules';

const OP = 'addRules';

export const addRules: ItemOperation = {
	option: {
		name: 'Add Stream Rules',
		value: OP,
		description: `Add filtered-stream rules (a search query each, with an optional tag). The rules are first validated with a dry run; nothing is added when any is refused (invalid, duplicate, rule cap reached). Changes apply after about 20 seconds. ${BEARER_NOTE}.`,
		action: 'Add filtered stream rules',
	},
	properties: [
		{
			displayName: 'Rules',
			name: 'rules',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Rule',
			displayOptions: showFor('admin', OP),
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
							description: 'The rule, in the search query syntax (up to 1,024 characters; 2,048 on Enterprise)',
						},
						{
							displayName: 'Tag',
							name: 'tag',
							type: 'string',
							default: '',
							description: 'Optional label delivered with each matching post (cannot be changed later)',
						},
					],
				},
			],
		},
		optionsCollection('admin', OP, [
			{
				displayName: 'Validate Only',
				name: 'dryRun',
				type: 'boolean',
				default: false,
				description: 'Whether to only check the rules (dry run) without adding them',
			},
		]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const raw = (this.getNodeParameter('rules', itemIndex, {}) as IDataObject).rule as IDataObject[] | undefined;
		const rules: IDataObject[] = [];
		for (const [index, entry] of (raw ?? []).entries()) {
			const value = String(entry.value ?? '').trim();
			const tag = String(entry.tag ?? '').trim();
			const fail = (message: string) =>
				new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Rules #${index + 1}: ${message}`, { itemIndex });
			if (!value) throw fail('Value is empty');
			if (value.length > MAX_RULE_LENGTH) throw fail(`Value is longer than ${MAX_RULE_LENGTH} characters`);
			rules.push(tag ? { value, tag } : { value });
		}
		if (!rules.length) {
			throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Rules: add at least one rule`, { itemIndex });
		}
		const body = { add: rules };
		const check = await adminRequest.call(this, itemIndex, 'Adding stream rules', {
			method: 'POST',
			path: RULES_PATH,
			qs: { dry_run: true },
			body,
			// A dry run changes nothing: safe to retry.
			retryTransient: true,
		});
		assertNoRuleErrors(this, itemIndex, check, 'Rule validation failed, no rule was added');
		const dryRun = Boolean((this.getNodeParameter('options', itemIndex, {}) as IDataObject).dryRun);
		const response = dryRun
			? check
			: await adminRequest.call(this, itemIndex, 'Adding stream rules', {
					method: 'POST',
					path: RULES_PATH,
					body,
					unsafeFailureHint: 'The rules may have been added: check List Stream Rules before adding them again.',
				});
		assertNoRuleErrors(this, itemIndex, response, 'The service refused rules');
		const summary = ((response.meta as IDataObject | undefined)?.summary ?? {}) as IDataObject;
		const created = (Array.isArray(response.data) ? response.data : []) as IDataObject[];
		if (!created.length) return { dry_run: dryRun, rules, summary };
		return created.map((rule) => ({ ...rule, ...(dryRun ? { dry_run: true } : {}) }));
	},
};
