import type { IDataObject } from 'n8n-workflow';
import { unwrapData } from '../../../shared/transport';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { catalogIdOf, catalogPath } from '../../common';
import {
	createSchema,
	formatOptions,
	frequencyOptions,
	hourOptions,
	LABELS,
	startTimeProperty,
	timeZoneProperty,
	weekdayOptions,
} from './common';

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description:
			'Schedule the service to fetch a hosted product file (CSV, TSV or XML) hourly, daily or weekly. Additive: products missing from the file are not deleted.',
		action: 'Create a scheduled feed',
	},
	properties: [
		{
			displayName: 'Feed URL',
			name: 'feedUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://shop.example/feeds/products.csv',
			description: 'The hosted product file (up to 8 GB)',
		},
		{
			displayName: 'Feed Format',
			name: 'feedFormat',
			type: 'options',
			options: formatOptions,
			default: 'CSV',
		},
		{
			displayName: 'Frequency',
			name: 'frequency',
			type: 'options',
			options: frequencyOptions,
			default: 'DAILY',
		},
		{
			displayName: 'Weekday',
			name: 'weekday',
			type: 'options',
			options: weekdayOptions,
			default: 'MONDAY',
			displayOptions: { show: { frequency: ['WEEKLY'] } },
			description: 'The day of the week the feed is fetched',
		},
		{
			displayName: 'Every',
			name: 'everyHours',
			type: 'options',
			options: hourOptions,
			default: '1',
			displayOptions: { show: { frequency: ['HOURLY'] } },
			description: 'How many hours between two fetches',
		},
		startTimeProperty,
		timeZoneProperty,
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const catalogId = catalogIdOf(ctx, itemIndex);
		const frequency = ctx.getNodeParameter('frequency', itemIndex, 'DAILY') as string;
		const repeat =
			frequency === 'WEEKLY'
				? (ctx.getNodeParameter('weekday', itemIndex, '') as string)
				: frequency === 'HOURLY'
					? String(ctx.getNodeParameter('everyHours', itemIndex, ''))
					: undefined;
		const feed = validateInput(
			ctx.getNode(),
			createSchema,
			{
				feed_url: ctx.getNodeParameter('feedUrl', itemIndex, ''),
				feed_format: ctx.getNodeParameter('feedFormat', itemIndex, ''),
				frequency,
				repeat: repeat || undefined,
				start_time: ctx.getNodeParameter('startTime', itemIndex, ''),
				time_zone: ctx.getNodeParameter('timeZone', itemIndex, ''),
			},
			itemIndex,
			LABELS,
		);
		const qs: IDataObject = { ...feed };
		if (qs.repeat === undefined) delete qs.repeat;
		const body = await ctx.request({
			method: 'POST',
			path: catalogPath(catalogId, '/scheduled_feeds'),
			qs,
			unsafeFailureHint:
				'The feed may have been created: list the scheduled feeds before trying again.',
		});
		return unwrapData<IDataObject>(body);
	},
};
