import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { splitList } from '../../../shared/lists';
import { NodeOperationError } from 'n8n-workflow';

import type { BatchContext, BatchOperation } from '../../../shared/router';
import { asNodeError } from '../../../shared/errors';
import { unwrapData } from '../../../shared/transport';
import { catalogIdOf, catalogPath } from '../../common';

/** Keys per DELETE request: the service states no limit, so the PUT batch size (25) is used. */
const DELETE_BATCH_SIZE = 25;

export const deleteProducts: BatchOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description:
			'Permanently delete products by their product keys, in batches; one result per key',
		action: 'Delete products',
	},
	properties: [
		{
			displayName: 'Product Keys From',
			name: 'keySource',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Input Items',
					value: 'items',
					description: 'A field of each input item holds a product key (or a list of keys)',
				},
				{
					name: 'List',
					value: 'list',
					description: 'Enter the product keys, separated by commas or new lines',
				},
			],
			default: 'items',
		},
		{
			displayName: 'Field Name',
			name: 'keyField',
			type: 'string',
			default: 'product_key',
			displayOptions: { show: { keySource: ['items'] } },
			description: 'The input field with the product key, as output by Product > Push or Get Many',
		},
		{
			displayName: 'Product Keys',
			name: 'productKeys',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			displayOptions: { show: { keySource: ['list'] } },
			description: 'Service-generated product keys, separated by commas or new lines',
		},
	],

	async executeBatch(
		ctx: BatchContext,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		if (items.length === 0) return [];
		const catalogId = catalogIdOf(ctx, 0);
		const source = ctx.getNodeParameter('keySource', 0, 'items') as string;
		// key → the input item it came from (first occurrence); each key is deleted once.
		const origin = new Map<string, number>();
		if (source === 'list') {
			for (const key of splitList(ctx.getNodeParameter('productKeys', 0, '')))
				if (!origin.has(key)) origin.set(key, 0);
		} else {
			const field = String(ctx.getNodeParameter('keyField', 0, 'product_key') || 'product_key');
			items.forEach((item, i) => {
				for (const key of splitList(item.json?.[field])) if (!origin.has(key)) origin.set(key, i);
			});
		}
		if (origin.size === 0) {
			throw new NodeOperationError(
				ctx.getNode(),
				source === 'list'
					? 'No product keys were entered'
					: 'No input item has a product key in the chosen field',
				{
					description:
						'Product keys are service-generated; Product > Get Many and Product > Push output them as product_key.',
				},
			);
		}
		const keys = [...origin.keys()];
		const output: INodeExecutionData[] = [];
		for (let start = 0; start < keys.length; start += DELETE_BATCH_SIZE) {
			const batch = keys.slice(start, start + DELETE_BATCH_SIZE);
			let body: IDataObject;
			try {
				body = await ctx.forItem(origin.get(batch[0]) ?? 0).request({
					method: 'DELETE',
					path: catalogPath(catalogId, '/products'),
					body: { product_keys: batch },
				});
			} catch (error) {
				if (!ctx.continueOnFail()) throw asNodeError(ctx, error, origin.get(batch[0]));
				for (const key of batch) {
					output.push({
						json: { product_key: key, deleted: false, error: (error as Error).message },
						pairedItem: { item: origin.get(key) ?? 0 },
					});
				}
				continue;
			}
			const list = unwrapData<IDataObject>(body)?.delete_products;
			const results = Array.isArray(list) ? (list as IDataObject[]) : [];
			const byKey = new Map(results.map((r) => [String(r.product_key), r]));
			for (const key of batch) {
				const r = byKey.get(key);
				const json: IDataObject = r
					? {
							product_key: key,
							deleted: r.failed_product_key === null || r.failed_product_key === undefined,
							failed_product_key: r.failed_product_key ?? null,
							message: r.message ?? null,
						}
					: {
							product_key: key,
							deleted: false,
							failed_product_key: key,
							message: 'The service returned no result for this key',
						};
				output.push({ json, pairedItem: { item: origin.get(key) ?? 0 } });
			}
		}
		return output;
	},
};
