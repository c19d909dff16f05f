import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors } from '../../fields';
import { measuredPostIds, postIdsProperty, windowProperties, windowQuery } from './analytics';

/** The engagement reads measure at most 25 posts per request. */
const MAX_POSTS = 25;
/** The Metrics field's default (the field is absent from workflows saved without it). */
const DEFAULT_METRICS = ['Impressions', 'Engagements'];

const METRICS = [
	'AppInstallAttempts',
	'AppOpens',
	'DetailExpands',
	'EmailTweet',
	'Engagements',
	'Follows',
	'HashtagClicks',
	'Impressions',
	'Likes',
	'LinkClicks',
	'MediaEngagements',
	'MediaViews',
	'PermalinkClicks',
	'ProfileVisits',
	'QuoteTweets',
	'Replies',
	'Retweets',
	'UniqueVideoViews',
	'UrlClicks',
	'UserProfileClicks',
	'VideoCompletions',
	'VideoPlayed25Percent',
	'VideoPlayed50Percent',
	'VideoPlayed75Percent',
	'VideoStarts',
	'VideoViews',
];

/** "VideoPlayed25Percent" → "Video Played 25 Percent" */
const label = (value: string) => value.replace(/([a-z])([A-Z0-9])|([0-9])([A-Z])/g, '$1$3 $2$4');

export const getInsights: ItemOperation = {
	option: {
		name: 'Get Insights',
		value: 'getInsights',
		description:
			"Engagement figures of the authenticated user's posts: over the last 28 hours, or over a past time window. Needs a user-context credential.",
		action: 'Get insights of posts',
	},
	properties: [
		{
			displayName: 'Period',
			name: 'period',
			type: 'options',
			default: 'last28Hours',
			options: [
				{ name: 'Last 28 Hours', value: 'last28Hours' },
				{
					name: 'Historical',
					value: 'historical',
					description: 'A time window in the past, between Start Time and End Time',
				},
			],
		},
		postIdsProperty(MAX_POSTS),
		...windowProperties({ period: ['historical'] }),
		{
			displayName: 'Granularity',
			name: 'granularity',
			type: 'options',
			default: 'Total',
			options: [
				{
					name: 'Total',
					value: 'Total',
					description: 'One figure per metric for the whole period',
				},
				{ name: 'Daily', value: 'Daily' },
				{ name: 'Hourly', value: 'Hourly' },
				{ name: 'Weekly', value: 'Weekly' },
			],
		},
		{
			displayName: 'Metrics',
			name: 'requestedMetrics',
			type: 'multiOptions',
			default: ['Impressions', 'Engagements'],
			required: true,
			options: METRICS.map((value) => ({ name: label(value), value })),
			description: 'The metrics to return (at least one)',
		},
	],
	options: [
		{
			displayName: 'Include Errors per Post',
			name: 'includeErrors',
			type: 'boolean',
			default: false,
			description:
				'Whether to ask for the errors field beside the measurement (engagement.fields), e.g. for posts that cannot be measured',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const historical = ctx.getNodeParameter('period', itemIndex, 'last28Hours') === 'historical';
		const ids = measuredPostIds(ctx, itemIndex, MAX_POSTS);
		const metrics = [
			...new Set(
				(ctx.getNodeParameter('requestedMetrics', itemIndex, DEFAULT_METRICS) as string[]) ?? [],
			),
		];
		if (!metrics.length)
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Metrics: choose at least one`,
				{ itemIndex },
			);
		const qs: IDataObject = {
			// Each id and metric is its own query parameter (tweet_ids=1&tweet_ids=2).
			tweet_ids: ids,
			granularity: ctx.getNodeParameter('granularity', itemIndex, 'Total') as string,
			requested_metrics: metrics,
			...(historical ? windowQuery(ctx, itemIndex) : {}),
		};
		if (ctx.options.includeErrors) qs['engagement.fields'] = 'errors,measurement';
		const body = await ctx.request<IDataObject>({
			method: 'GET',
			path: historical ? '/2/insights/historical' : '/2/insights/28hr',
			qs,
		});
		const data = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
		return [...data, ...partialErrors(body ?? {})];
	},
};
