import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { optionsCollection, splitList } from '../../common';
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
			displayOptions: showFor('admin', OP),
			description: 'Only these rules, separated by commas (all when empty)',
		},
		returnAllProperty({ resource: ['admin'], operation: [OP] }),
		limitProperty({ resource: ['admin'], operation: [OP] }, 100000),
		optionsCollection('admin', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const qs: IDataObject = {};
		const ids = splitList(this.getNodeParameter('ruleIds', itemIndex, ''));
		if (ids.length) qs.ids = ids.join(',');
		return await adminPaginate.call(this, itemIndex, 'Listing stream rules', { method: 'GET', path: RULES_PATH, qs }, 1000);
	},
};
