import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { APP_ONLY } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';

const USAGE_FIELDS = [
	'cap_reset_day',
	'daily_client_app_usage',
	'daily_project_usage',
	'project_cap',
	'project_id',
	'project_usage',
];

const schema = z.object({
	days: z.number().int('must be a whole number').min(1, 'at least 1').max(90, 'at most 90'),
});

export const get: ItemOperation = {
	option: {
		name: 'Get Post Usage',
		value: 'get',
		description:
			"How many posts the app's project has read this month, against its cap, and per day",
		action: 'Get post usage',
	},
	properties: [
		{
			displayName: 'Days',
			name: 'days',
			type: 'number',
			default: 7,
			typeOptions: { minValue: 1, maxValue: 90 },
			description: 'How many days of daily usage to return (1 to 90)',
		},
		{
			displayName: 'Usage Fields',
			name: 'usageFields',
			type: 'multiOptions',
			default: [],
			description: 'Fields of the usage to return (usage.fields)',
			options: USAGE_FIELDS.map((value) => ({ name: value, value })),
		},
	],
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const input = validateInput(
			ctx.getNode(),
			schema,
			{ days: Number(ctx.getNodeParameter('days', itemIndex, 7)) },
			itemIndex,
			{ days: 'Days' },
		);
		const qs: IDataObject = { days: input.days };
		const fields = ctx.getNodeParameter('usageFields', itemIndex, []) as string[];
		if (fields.length) qs['usage.fields'] = fields.join(',');
		const body = await ctx.request({ method: 'GET', path: '/2/usage/tweets', qs });
		return unwrapData<IDataObject>(body) ?? {};
	},
};
