import type { IDataObject } from 'n8n-workflow';
import { splitList } from '../../../shared/lists';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { adminPaginate, BEARER_NOTE } from './common';
import { RULES_PATH } from './rules';

const OP = 'listRules';

export const listRules: ItemOperation = {
	option: {
		name: 'List Stream Rules',
		value: OP,
		description: `List the app's filtered-stream rules (ID, value, tag). These rules also select the posts the trigger's "Posts matching search rules" mode receives. ${BEARER_NOTE}.`,
		action: 'List filtered stream rules',
	},
	properties: [
		{
			displayName: 'Rule IDs',
			name: 'ruleIds',
			type: 'string',
			default: '',
			description: 'Only these rules, separated by commas (all when empty)',
		},
		returnAllProperty(),
		limitProperty(100000),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const qs: IDataObject = {};
		const ids = splitList(ctx.getNodeParameter('ruleIds', itemIndex, ''));
		if (ids.length) qs.ids = ids.join(',');
		return await adminPaginate.call(ctx, itemIndex, { method: 'GET', path: RULES_PATH, qs }, 1000);
	},
};
