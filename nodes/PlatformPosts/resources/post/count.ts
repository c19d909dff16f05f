import type { IDataObject } from 'n8n-workflow';

import { APP_ONLY } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { queryProperties, timeOptions, timeQuery } from './query';

/** A guard against a server that keeps sending next_token. */
const MAX_PAGES = 100;

export const count: ItemOperation = {
	option: {
		name: 'Count',
		value: 'count',
		description:
			'Count the posts matching a query per minute, hour or day (recent or full archive). Needs the App-Only Bearer Token authentication: the service takes no other for counts.',
		action: 'Count posts',
	},
	properties: [
		...queryProperties,
		{
			displayName: 'Granularity',
			name: 'granularity',
			type: 'options',
			default: 'hour',
			description: 'The size of each time bucket',
			options: [
				{ name: 'Day', value: 'day' },
				{ name: 'Hour', value: 'hour' },
				{ name: 'Minute', value: 'minute' },
			],
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'summary',
			options: [
				{
					name: 'One Item With Total and Buckets',
					value: 'summary',
					description: 'Total_tweet_count and a counts array of {start, end, tweet_count}',
				},
				{
					name: 'One Item per Time Bucket',
					value: 'buckets',
					description: '{start, end, tweet_count} per item',
				},
			],
		},
	],
	options: timeOptions,
	authentication: APP_ONLY,
	async execute(ctx: OperationContext, itemIndex: number) {
		const archive =
			ctx.getNodeParameter('archive', itemIndex, 'recent') === 'all' ? 'all' : 'recent';
		const granularity = String(ctx.getNodeParameter('granularity', itemIndex, 'hour'));
		const qs: IDataObject = {
			query: String(ctx.getNodeParameter('query', itemIndex, '')),
			granularity,
			...timeQuery(ctx, itemIndex, ctx.options),
		};
		const buckets: IDataObject[] = [];
		let total = 0;
		let token: string | undefined;
		for (let page = 0; page < MAX_PAGES; page++) {
			const body = await ctx.request({
				method: 'GET',
				path: `/2/tweets/counts/${archive}`,
				qs: token ? { ...qs, next_token: token } : qs,
			});
			const data = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
			buckets.push(...data);
			const meta = (body?.meta ?? {}) as IDataObject;
			total += Number(
				meta.total_tweet_count ?? data.reduce((sum, b) => sum + Number(b.tweet_count ?? 0), 0),
			);
			token = meta.next_token ? String(meta.next_token) : undefined;
			if (!token) break;
		}
		buckets.sort((a, b) => String(a.start).localeCompare(String(b.start)));
		if (ctx.getNodeParameter('output', itemIndex, 'summary') === 'buckets') return buckets;
		return { query: qs.query, granularity, total_tweet_count: total, counts: buckets };
	},
};
