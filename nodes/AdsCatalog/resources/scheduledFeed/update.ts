import type { IDataObject } from 'n8n-workflow';
import { unwrapData } from '../../../shared/transport';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { catalogIdOf, catalogPath, feedIdOf, feedIdProperty } from '../../common';
import {
	formatOptions,
	frequencyOptions,
	hourOptions,
	LABELS,
	repeatFrom,
	startTimeProperty,
	timeZoneProperty,
	updateSchema,
	weekdayOptions,
} from './common';

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change the URL, format or schedule of a scheduled feed',
		action: 'Update a scheduled feed',
	},
	properties: [
		feedIdProperty,
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Every (Hours)',
					name: 'everyHours',
					type: 'options',
					options: hourOptions,
					default: '1',
					description: 'For HOURLY feeds: hours between two fetches',
				},
				{
					displayName: 'Feed Format',
					name: 'feedFormat',
					type: 'options',
					options: formatOptions,
					default: 'CSV',
				},
				{ displayName: 'Feed URL', name: 'feedUrl', type: 'string', default: '' },
				{
					displayName: 'Frequency',
					name: 'frequency',
					type: 'options',
					options: frequencyOptions,
					default: 'DAILY',
					description: 'WEEKLY needs Weekday, HOURLY needs Every (Hours), DAILY neither',
				},
				{ ...startTimeProperty },
				{ ...timeZoneProperty },
				{
					displayName: 'Weekday',
					name: 'weekday',
					type: 'options',
					options: weekdayOptions,
					default: 'MONDAY',
					description: 'For WEEKLY feeds: the day of the week',
				},
			],
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const catalogId = catalogIdOf(ctx, itemIndex);
		const feedId = feedIdOf(ctx, itemIndex);
		const fields = (ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject) ?? {};
		const frequency = fields.frequency as string | undefined;
		const input = validateInput(
			ctx.getNode(),
			updateSchema,
			{
				feed_url: fields.feedUrl,
				feed_format: fields.feedFormat,
				frequency,
				repeat: repeatFrom(frequency, fields),
				start_time: fields.startTime,
				time_zone: fields.timeZone,
			},
			itemIndex,
			LABELS,
		);
		const qs: IDataObject = {};
		for (const [k, v] of Object.entries(input)) if (v !== undefined) qs[k] = v;
		const body = await ctx.request({
			method: 'PUT',
			path: catalogPath(catalogId, `/scheduled_feeds/${encodeURIComponent(feedId)}`),
			qs,
		});
		return unwrapData<IDataObject>(body);
	},
};
