import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { paginate } from '../../../shared/transport';
import { API_VERSION, optionsCollection, readOptions } from '../../common';

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description: 'List the product catalogs of a user (a user has at most one)',
		action: 'Get many catalogs',
	},
	properties: [
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			placeholder: '1000000001',
			displayOptions: showFor('catalog', 'getMany'),
			description: 'The user whose catalogs to list. Leave empty for the authenticated user.',
		},
		returnAllProperty({ resource: ['catalog'], operation: ['getMany'] }),
		limitProperty({ resource: ['catalog'], operation: ['getMany'] }),
		optionsCollection('catalog', 'getMany'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const userId = String(this.getNodeParameter('userId', itemIndex, '') ?? '').trim();
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
		const options = readOptions(this, itemIndex);
		return await paginate.call(
			this,
			{
				method: 'GET',
				path: `${API_VERSION}/product_catalogs`,
				api: 'ads',
				qs: userId ? ({ user_id: userId } as IDataObject) : undefined,
				itemIndex,
				maxRateLimitWait: options.maxRateLimitWait as number | undefined,
			},
			{ returnAll, limit, style: 'ads' },
		);
	},
};
