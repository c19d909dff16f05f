import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { adsData, adsRequest, catalogIdOf, catalogLocator, catalogPath, optionsCollection } from '../../common';
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

const show = (extra: IDataObject = {}) => showFor('scheduledFeed', 'create', extra);

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description:
			'Schedule the service to fetch a hosted product file (CSV, TSV or XML) hourly, daily or weekly. Additive: products missing from the file are not deleted.',
		action: 'Create a scheduled feed',
	},
	properties: [
		catalogLocator('scheduledFeed', 'create'),
		{
			displayName: 'Feed URL',
			name: 'feedUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://shop.example/feeds/products.csv',
			displayOptions: show(),
			description: 'The hosted product file (up to 8 GB)',
		},
		{
			displayName: 'Feed Format',
			name: 'feedFormat',
			type: 'options',
			options: formatOptions,
			default: 'CSV',
			displayOptions: show(),
		},
		{
			displayName: 'Frequency',
			name: 'frequency',
			type: 'options',
			options: frequencyOptions,
			default: 'DAILY',
			displayOptions: show(),
		},
		{
			displayName: 'Weekday',
			name: 'weekday',
			type: 'options',
			options: weekdayOptions,
			default: 'MONDAY',
			displayOptions: show({ frequency: ['WEEKLY'] }),
			description: 'The day of the week the feed is fetched',
		},
		{
			displayName: 'Every',
			name: 'everyHours',
			type: 'options',
			options: hourOptions,
			default: '1',
			displayOptions: show({ frequency: ['HOURLY'] }),
			description: 'How many hours between two fetches',
		},
		{ ...startTimeProperty, displayOptions: show() },
		{ ...timeZoneProperty, displayOptions: show() },
		optionsCollection('scheduledFeed', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const frequency = this.getNodeParameter('frequency', itemIndex, 'DAILY') as string;
		const repeat =
			frequency === 'WEEKLY'
				? (this.getNodeParameter('weekday', itemIndex, '') as string)
				: frequency === 'HOURLY'
					? String(this.getNodeParameter('everyHours', itemIndex, ''))
					: undefined;
		const feed = validateInput(
			this.getNode(),
			createSchema,
			{
				feed_url: this.getNodeParameter('feedUrl', itemIndex, ''),
				feed_format: this.getNodeParameter('feedFormat', itemIndex, ''),
				frequency,
				repeat: repeat || undefined,
				start_time: this.getNodeParameter('startTime', itemIndex, ''),
				time_zone: this.getNodeParameter('timeZone', itemIndex, ''),
			},
			itemIndex,
			LABELS,
		);
		const qs: IDataObject = { ...feed };
		if (qs.repeat === undefined) delete qs.repeat;
		const body = await adsRequest.call(this, itemIndex, {
			method: 'POST',
			path: catalogPath(catalogId, '/scheduled_feeds'),
			qs,
			unsafeFailureHint: 'The feed may have been created: list the scheduled feeds before trying again.',
		});
		return adsData<IDataObject>(body);
	},
};
