import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { APP_ONLY } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';

const TREND_FIELDS = ['trend_name', 'tweet_count'];

const schema = z.object({
	woeid: z
		.number({ invalid_type_error: 'must be a number' })
		.int('must be a whole number')
		.min(1, 'must be a positive WOEID')
		.max(2147483647, 'is too large for a WOEID'),
	maxTrends: z.number().int().min(1, 'at least 1').max(50, 'at most 50'),
});

export const getByPlace: ItemOperation = {
	option: {
		name: 'Get by Place',
		value: 'getByPlace',
		description: 'Get what is trending in a country or city, or worldwide',
		action: 'Get trends for a place',
	},
	properties: [
		{
			displayName: 'Place',
			name: 'place',
			type: 'options',
			default: '1',
			description: 'Where the trends are; choose "Other Place (WOEID)" for a place not listed',
			// The places with trends most asked for, by their Yahoo! Where On Earth ID (WOEID).
			options: [
				{ name: 'Australia', value: '23424748', description: 'WOEID 23424748' },
				{ name: 'Brazil', value: '23424768', description: 'WOEID 23424768' },
				{ name: 'Canada', value: '23424775', description: 'WOEID 23424775' },
				{ name: 'France', value: '23424819', description: 'WOEID 23424819' },
				{ name: 'Germany', value: '23424829', description: 'WOEID 23424829' },
				{ name: 'India', value: '23424848', description: 'WOEID 23424848' },
				{ name: 'Japan', value: '23424856', description: 'WOEID 23424856' },
				{ name: 'London', value: '44418', description: 'WOEID 44418' },
				{ name: 'New York', value: '2459115', description: 'WOEID 2459115' },
				{
					name: 'Other Place (WOEID)',
					value: 'woeid',
					description: 'A place given by its Yahoo! Where On Earth ID',
				},
				{ name: 'Tokyo', value: '1118370', description: 'WOEID 1118370' },
				{ name: 'United Kingdom', value: '23424975', description: 'WOEID 23424975' },
				{ name: 'United States', value: '23424977', description: 'WOEID 23424977' },
				{ name: 'Worldwide', value: '1', description: 'WOEID 1' },
			],
		},
		{
			displayName: 'WOEID',
			name: 'woeid',
			type: 'number',
			default: 1,
			required: true,
			typeOptions: { minValue: 1 },
			displayOptions: { show: { place: ['woeid'] } },
			placeholder: '2459115',
			description:
				'The Yahoo! Where On Earth ID of the place (e.g. 2459115 is New York, 1 is worldwide)',
		},
		{
			displayName: 'Max Trends',
			name: 'maxTrends',
			type: 'number',
			default: 20,
			typeOptions: { minValue: 1, maxValue: 50 },
			description: 'Max number of trends to return (1 to 50)',
		},
		{
			displayName: 'Trend Fields',
			name: 'trendFields',
			type: 'multiOptions',
			default: [],
			description: 'Fields of each trend to return (trend.fields)',
			options: TREND_FIELDS.map((value) => ({ name: value, value })),
		},
	],
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const place = String(ctx.getNodeParameter('place', itemIndex, '1'));
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				woeid: Number(place === 'woeid' ? ctx.getNodeParameter('woeid', itemIndex, 1) : place),
				maxTrends: Number(ctx.getNodeParameter('maxTrends', itemIndex, 20)),
			},
			itemIndex,
			{ woeid: 'WOEID', maxTrends: 'Max Trends' },
		);
		const qs: IDataObject = { max_trends: input.maxTrends };
		const fields = ctx.getNodeParameter('trendFields', itemIndex, []) as string[];
		if (fields.length) qs['trend.fields'] = fields.join(',');
		const body = await ctx.request({
			method: 'GET',
			path: `/2/trends/by/woeid/${input.woeid}`,
			qs,
		});
		const data = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
		return data.map((trend, i) => ({ rank: i + 1, woeid: input.woeid, ...trend }));
	},
};
