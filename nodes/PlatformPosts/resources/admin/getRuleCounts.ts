import type { IDataObject } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE } from './common';
import { RULES_PATH } from './rules';

const OP = 'getRuleCounts';

/** What the service reports about stream rule counts and caps (rules_count.fields). */
const RULE_COUNT_FIELDS = [
	'all_project_client_apps',
	'cap_per_client_app',
	'cap_per_project',
	'client_app_rules_count',
	'project_rules_count',
];

/** Admin → Get Stream Rule Counts: how many filtered-stream rules the app and project have, of how many. */
export const getRuleCounts: ItemOperation = {
	option: {
		name: 'Get Stream Rule Counts',
		value: OP,
		description: `Count the filtered-stream rules of the app and its project, and the caps on them. ${BEARER_NOTE}.`,
		action: 'Get filtered stream rule counts',
	},
	properties: [
		{
			displayName: 'Fields',
			name: 'ruleCountFields',
			type: 'multiOptions',
			default: [],
			options: RULE_COUNT_FIELDS.map((value) => ({ name: value, value })),
			description:
				'Counts and caps to return (rules_count.fields); without any the service returns its default set',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const fields = (ctx.getNodeParameter('ruleCountFields', itemIndex, []) as string[]) ?? [];
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'GET',
			path: `${RULES_PATH}/counts`,
			qs: fields.length ? { 'rules_count.fields': fields.join(',') } : undefined,
		});
		return unwrapData<IDataObject>(body) ?? {};
	},
};
