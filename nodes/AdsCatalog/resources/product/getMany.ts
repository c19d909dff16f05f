import type { IDataObject } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { catalogIdOf, catalogPath } from '../../common';

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description:
			'List the products of a catalog. Of a product group only the first-submitted product is returned unless an item group key is given.',
		action: 'Get many products',
	},
	properties: [
		returnAllProperty(),
		limitProperty(10_000),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Item Group Key',
					name: 'itemGroupKey',
					type: 'string',
					default: '',
					description:
						'Only the variants of this product group (the service-generated item_group_key)',
				},
			],
		},
	],
	options: [
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 100,
			description: 'Products per request (the service allows 1-100)',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const catalogId = catalogIdOf(ctx, itemIndex);
		const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
		const filters = (ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject) ?? {};
		const options = ctx.options;
		const pageSize = Math.min(100, Math.max(1, Math.floor(Number(options.pageSize ?? 100) || 100)));
		const qs: IDataObject = {};
		const itemGroupKey = String(filters.itemGroupKey ?? '').trim();
		if (itemGroupKey) qs.item_group_key = itemGroupKey;
		return await ctx.paginate(
			{
				method: 'GET',
				path: catalogPath(catalogId, '/products'),
				qs,
			},
			{
				returnAll,
				limit,
				style: 'ads',
				pageSizeParam: 'count',
				maxPageSize: pageSize,
				minPageSize: 1,
			},
		);
	},
};
