import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors } from '../../fields';
import { measuredPostIds, postIdsProperty, windowProperties, windowQuery } from './analytics';

/** The service measures at most 100 posts per request. */
const MAX_POSTS = 100;

const METRICS = [
	'app_install_attempts',
	'app_opens',
	'bookmarks',
	'detail_expands',
	'email_tweet',
	'engagements',
	'follows',
	'hashtag_clicks',
	'id',
	'impressions',
	'likes',
	'media_views',
	'permalink_clicks',
	'quote_tweets',
	'replies',
	'retweets',
	'shares',
	'timestamp',
	'unfollows',
	'unlikes',
	'url_clicks',
	'user_profile_clicks',
];

/** The Metrics field's default (the field is absent from workflows saved without it). */
const DEFAULT_METRICS = ['impressions', 'engagements', 'likes', 'replies', 'retweets'];

export const getAnalytics: ItemOperation = {
	option: {
		name: 'Get Analytics',
		value: 'getAnalytics',
		description:
			"Measure the authenticated user's posts over a time window: impressions, engagements, likes and more, in total or per hour, day or week. Needs a user-context credential.",
		action: 'Get analytics of posts',
	},
	properties: [
		postIdsProperty(MAX_POSTS),
		...windowProperties(),
		{
			displayName: 'Granularity',
			name: 'granularity',
			type: 'options',
			default: 'total',
			options: [
				{
					name: 'Total',
					value: 'total',
					description: 'One figure per metric for the whole window',
				},
				{ name: 'Daily', value: 'daily' },
				{ name: 'Hourly', value: 'hourly' },
				{ name: 'Weekly', value: 'weekly' },
			],
			description: 'One figure for the whole window, or one per hour, day or week',
		},
		{
			displayName: 'Metrics',
			name: 'analyticsFields',
			type: 'multiOptions',
			default: ['impressions', 'engagements', 'likes', 'replies', 'retweets'],
			options: METRICS.map((value) => ({ name: value, value })),
			description: 'The metrics to return (analytics.fields)',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const ids = measuredPostIds(ctx, itemIndex, MAX_POSTS);
		const qs: IDataObject = {
			ids: ids.join(','),
			...windowQuery(ctx, itemIndex),
			granularity: ctx.getNodeParameter('granularity', itemIndex, 'total') as string,
		};
		const fields =
			(ctx.getNodeParameter('analyticsFields', itemIndex, DEFAULT_METRICS) as string[]) ?? [];
		if (fields.length) qs['analytics.fields'] = fields.join(',');
		const body = await ctx.request<IDataObject>({ method: 'GET', path: '/2/tweets/analytics', qs });
		const data = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
		return [...data, ...partialErrors(body ?? {})];
	},
};
