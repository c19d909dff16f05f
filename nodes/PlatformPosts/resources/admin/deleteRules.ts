import type { IDataObject } from 'n8n-workflow';
import { splitList } from '../../../shared/lists';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { adminRequest, BEARER_NOTE } from './common';
import { ruleProblems, RULES_PATH } from './rules';

const OP = 'deleteRules';

export const deleteRules: ItemOperation = {
	option: {
		name: 'Delete Stream Rules',
		value: OP,
		description: `DESTRUCTIVE: delete filtered-stream rules by ID; posts matching only those rules stop arriving (also at the trigger). Use "Validate Only" for a dry run. ${BEARER_NOTE}.`,
		action: 'Delete filtered stream rules',
	},
	properties: [
		{
			displayName: 'Rule IDs',
			name: 'ruleIds',
			type: 'string',
			default: '',
			required: true,
			description:
				'The rules to delete, separated by commas, spaces or new lines (from List Stream Rules)',
		},
	],
	options: [
		{
			displayName: 'Validate Only',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description: 'Whether to only check the deletion (dry run) without deleting anything',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const ids = [...new Set(splitList(ctx.getNodeParameter('ruleIds', itemIndex, '')))];
		const invalid = ids.find((id) => !/^\d{1,19}$/.test(id));
		const fail = (message: string) =>
			new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Rule IDs: ${message}`,
				{ itemIndex },
			);
		if (!ids.length) throw fail('empty');
		if (invalid) throw fail(`"${invalid}" is not a rule ID (1-19 digits)`);
		const dryRun = Boolean((ctx.getNodeParameter('options', itemIndex, {}) as IDataObject).dryRun);
		const response = await adminRequest.call(ctx, itemIndex, {
			method: 'POST',
			path: RULES_PATH,
			qs: dryRun ? { dry_run: true } : undefined,
			body: { delete: { ids } },
			// Deleting the same ids again changes nothing more: safe to retry.
			retryTransient: true,
		});
		const summary = ((response.meta as IDataObject | undefined)?.summary ?? {}) as IDataObject;
		const problems = ruleProblems(response);
		return { dry_run: dryRun, ids, ...summary, ...(problems.length ? { errors: problems } : {}) };
	},
};
