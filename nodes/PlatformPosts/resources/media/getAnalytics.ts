import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { MEDIA_KEY_BATCH, mediaKeysProperty, readMediaKeys } from './fields';

const OP = 'getAnalytics';

const GRANULARITIES = ['hourly', 'daily', 'total'] as const;

/** The metrics the service reports per media (media_analytics.fields). */
const ANALYTICS_FIELDS = [
	'cta_url_clicks',
	'cta_watch_clicks',
	'media_key',
	'play_from_tap',
	'playback25',
	'playback50',
	'playback75',
	'playback_complete',
	'playback_start',
	'timestamp',
	'video_views',
	'watch_time_ms',
];

const time = z
	.string()
	.min(1, 'is required')
	.refine((v) => !Number.isNaN(new Date(v).getTime()), 'is not a date and time');

const schema = z
	.object({
		startTime: time,
		endTime: time,
		granularity: z.enum(GRANULARITIES, {
			errorMap: () => ({ message: 'must be Hourly, Daily or Total' }),
		}),
	})
	.refine((v) => new Date(v.startTime).getTime() < new Date(v.endTime).getTime(), {
		message: 'must be after Start Time',
		path: ['endTime'],
	});

const LABELS = { startTime: 'Start Time', endTime: 'End Time', granularity: 'Granularity' };

/** Media → Get Analytics: view and playback metrics of your media over a time window. */
export const getAnalyticsOperation: ItemOperation = {
	option: {
		name: 'Get Analytics',
		value: OP,
		description:
			'Get view and playback metrics (video views, playback quartiles, watch time, clicks) of your own media over a time window, per hour, per day or in total. Needs a user-context credential of the account that owns the media.',
		action: 'Get media analytics',
	},
	properties: [
		mediaKeysProperty(
			'Media keys of your media, separated by commas, spaces or new lines. More than 100 are split into several requests.',
		),
		{
			displayName: 'Start Time',
			name: 'startTime',
			type: 'dateTime',
			default: '',
			required: true,
			description: 'Start of the window (UTC unless a zone is given)',
		},
		{
			displayName: 'End Time',
			name: 'endTime',
			type: 'dateTime',
			default: '',
			required: true,
			description: 'End of the window; must be after the start',
		},
		{
			displayName: 'Granularity',
			name: 'granularity',
			type: 'options',
			default: 'daily',
			options: [
				{ name: 'Daily', value: 'daily', description: 'One set of metrics per day' },
				{ name: 'Hourly', value: 'hourly', description: 'One set of metrics per hour' },
				{ name: 'Total', value: 'total', description: 'One set of metrics for the whole window' },
			],
		},
		{
			displayName: 'Metrics',
			name: 'analyticsFields',
			type: 'multiOptions',
			default: [],
			options: ANALYTICS_FIELDS.map((value) => ({ name: value, value })),
			description:
				'Metrics to return (media_analytics.fields); without any the service returns its default set',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const keys = readMediaKeys(ctx, itemIndex);
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				startTime: String(ctx.getNodeParameter('startTime', itemIndex, '') ?? '').trim(),
				endTime: String(ctx.getNodeParameter('endTime', itemIndex, '') ?? '').trim(),
				granularity: String(ctx.getNodeParameter('granularity', itemIndex, 'daily')),
			},
			itemIndex,
			LABELS,
		);
		const fields = (ctx.getNodeParameter('analyticsFields', itemIndex, []) as string[]) ?? [];
		const qs: IDataObject = {
			start_time: new Date(input.startTime).toISOString(),
			end_time: new Date(input.endTime).toISOString(),
			granularity: input.granularity,
		};
		if (fields.length) qs['media_analytics.fields'] = fields.join(',');
		const out: IDataObject[] = [];
		for (let i = 0; i < keys.length; i += MEDIA_KEY_BATCH) {
			const body = await ctx.request({
				method: 'GET',
				path: '/2/media/analytics',
				qs: { media_keys: keys.slice(i, i + MEDIA_KEY_BATCH).join(','), ...qs },
			});
			// One entry per media key; the contract nests that list in a second `data`, accepted too.
			let data = body?.data as unknown;
			if (data && !Array.isArray(data) && Array.isArray((data as IDataObject).data))
				data = (data as IDataObject).data;
			out.push(...((Array.isArray(data) ? data : data ? [data] : []) as IDataObject[]));
		}
		return out;
	},
};
