import type { IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { paginate } from '../../../shared/transport';
import { catalogIdOf, catalogLocator, catalogPath, optionsCollection, readOptions } from '../../common';

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description: 'List the scheduled feeds of a catalog (the service supports one per user)',
		action: 'Get many scheduled feeds',
	},
	properties: [
		catalogLocator('scheduledFeed', 'getMany'),
		returnAllProperty({ resource: ['scheduledFeed'], operation: ['getMany'] }),
		limitProperty({ resource: ['scheduledFeed'], operation: ['getMany'] }),
		optionsCollection('scheduledFeed', 'getMany'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
		const options = readOptions(this, itemIndex);
		return await paginate.call(
			this,
			{
				method: 'GET',
				path: catalogPath(catalogId, '/scheduled_feeds'),
				api: 'ads',
				itemIndex,
				maxRateLimitWait: options.maxRateLimitWait as number | undefined,
			},
			{ returnAll, limit, style: 'ads' },
		);
	},
};
