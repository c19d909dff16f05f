import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { adsData, adsRequest, catalogIdOf, catalogLocator, catalogPath, idParameter, optionsCollection } from '../../common';

export const deleteFeed: ItemOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Permanently delete a scheduled feed (the products it brought stay in the catalog)',
		action: 'Delete a scheduled feed',
	},
	properties: [
		catalogLocator('scheduledFeed', 'delete'),
		{
			displayName: 'Scheduled Feed ID',
			name: 'feedId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showFor('scheduledFeed', 'delete'),
			description: 'The ID of the feed (Scheduled Feed > Get Many shows it)',
		},
		optionsCollection('scheduledFeed', 'delete'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const feedId = idParameter(this, 'feedId', 'Scheduled Feed ID', itemIndex);
		const body = await adsRequest.call(this, itemIndex, {
			method: 'DELETE',
			path: catalogPath(catalogId, `/scheduled_feeds/${encodeURIComponent(feedId)}`),
		});
		return { deleted: true, ...adsData<IDataObject>(body) };
	},
};
