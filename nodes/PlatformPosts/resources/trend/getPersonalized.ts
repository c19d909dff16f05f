import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';

const PERSONALIZED_TREND_FIELDS = ['category', 'post_count', 'trend_name', 'trending_since'];

export const getPersonalized: ItemOperation = {
	option: {
		name: 'Get Personalized',
		value: 'getPersonalized',
		description: 'Get the trends picked for the authenticated user',
		action: 'Get personalized trends',
	},
	properties: [
		{
			displayName: 'Trend Fields',
			name: 'personalizedTrendFields',
			type: 'multiOptions',
			default: [],
			description: 'Fields of each trend to return (personalized_trend.fields)',
			options: PERSONALIZED_TREND_FIELDS.map((value) => ({ name: value, value })),
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const qs: IDataObject = {};
		const fields = ctx.getNodeParameter('personalizedTrendFields', itemIndex, []) as string[];
		if (fields.length) qs['personalized_trend.fields'] = fields.join(',');
		const body = await ctx.request({ method: 'GET', path: '/2/users/personalized_trends', qs });
		return (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
	},
};
