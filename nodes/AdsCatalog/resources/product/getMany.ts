import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { paginate } from '../../../shared/transport';
import { catalogIdOf, catalogLocator, catalogPath, optionsCollection, readOptions } from '../../common';

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description:
			'List the products of a catalog. Of a product group only the first-submitted product is returned unless an item group key is given.',
		action: 'Get many products',
	},
	properties: [
		catalogLocator('product', 'getMany'),
		returnAllProperty({ resource: ['product'], operation: ['getMany'] }),
		limitProperty({ resource: ['product'], operation: ['getMany'] }, 10_000),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions: showFor('product', 'getMany'),
			options: [
				{
					displayName: 'Item Group Key',
					name: 'itemGroupKey',
					type: 'string',
					default: '',
					description: 'Only the variants of this product group (the service-generated item_group_key)',
				},
			],
		},
		optionsCollection('product', 'getMany', [
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 100,
				description: 'Products per request (the service allows 1-100)',
			},
		]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const catalogId = catalogIdOf(this, itemIndex);
		const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
		const filters = (this.getNodeParameter('filters', itemIndex, {}) as IDataObject) ?? {};
		const options = readOptions(this, itemIndex);
		const pageSize = Math.min(100, Math.max(1, Math.floor(Number(options.pageSize ?? 100) || 100)));
		const qs: IDataObject = {};
		const itemGroupKey = String(filters.itemGroupKey ?? '').trim();
		if (itemGroupKey) qs.item_group_key = itemGroupKey;
		return await paginate.call(
			this,
			{
				method: 'GET',
				path: catalogPath(catalogId, '/products'),
				api: 'ads',
				qs,
				itemIndex,
				maxRateLimitWait: options.maxRateLimitWait as number | undefined,
			},
			{ returnAll, limit, style: 'ads', pageSizeParam: 'count', maxPageSize: pageSize, minPageSize: 1 },
		);
	},
};
