import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BatchOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import type { PlatformContext, PlatformRequest } from '../../../shared/transport';
import { asNodeError, platformRequest } from '../../../shared/transport';
import { adsData, catalogIdOf, catalogLocator, catalogPath, optionsCollection, readOptions } from '../../common';

/** Keys per DELETE request (the spec names no limit; the PUT batch size is used). */
export const DELETE_BATCH_SIZE = 25;

const show = (extra: IDataObject = {}) => showFor('product', 'delete', extra);

function keysFrom(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const list = Array.isArray(value) ? value : String(value).split(/[\s,;]+/);
	return list.map((v) => String(v ?? '').trim()).filter((v) => v !== '');
}

export const deleteProducts: BatchOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Permanently delete products by their product keys, in batches; one result per key',
		action: 'Delete products',
	},
	properties: [
		catalogLocator('product', 'delete'),
		{
			displayName: 'Product Keys From',
			name: 'keySource',
			type: 'options',
			noDataExpression: true,
			displayOptions: show(),
			options: [
				{ name: 'Input Items', value: 'items', description: 'A field of each input item holds a product key (or a list of keys)' },
				{ name: 'List', value: 'list', description: 'Enter the product keys, separated by commas or new lines' },
			],
			default: 'items',
		},
		{
			displayName: 'Field Name',
			name: 'keyField',
			type: 'string',
			default: 'product_key',
			displayOptions: show({ keySource: ['items'] }),
			description: 'The input field with the product key, as output by Product > Push or Get Many',
		},
		{
			displayName: 'Product Keys',
			name: 'productKeys',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			displayOptions: show({ keySource: ['list'] }),
			description: 'Service-generated product keys, separated by commas or new lines',
		},
		optionsCollection('product', 'delete'),
	],

	async executeBatch(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		if (items.length === 0) return [];
		const catalogId = catalogIdOf(this, 0);
		const source = this.getNodeParameter('keySource', 0, 'items') as string;
		const options = readOptions(this, 0);
		// key → the input item it came from (first occurrence); each key is deleted once.
		const origin = new Map<string, number>();
		if (source === 'list') {
			for (const key of keysFrom(this.getNodeParameter('productKeys', 0, ''))) if (!origin.has(key)) origin.set(key, 0);
		} else {
			const field = String(this.getNodeParameter('keyField', 0, 'product_key') || 'product_key');
			items.forEach((item, i) => {
				for (const key of keysFrom(item.json?.[field])) if (!origin.has(key)) origin.set(key, i);
			});
		}
		if (origin.size === 0) {
			throw new NodeOperationError(
				this.getNode(),
				source === 'list' ? 'No product keys were entered' : 'No input item has a product key in the chosen field',
				{ description: 'Product keys are service-generated; Product > Get Many and Product > Push output them as product_key.' },
			);
		}
		const keys = [...origin.keys()];
		const output: INodeExecutionData[] = [];
		for (let start = 0; start < keys.length; start += DELETE_BATCH_SIZE) {
			const batch = keys.slice(start, start + DELETE_BATCH_SIZE);
			let body: IDataObject;
			try {
				body = await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(this, {
					method: 'DELETE',
					path: catalogPath(catalogId, '/products'),
					api: 'ads',
					body: { product_keys: batch },
					itemIndex: origin.get(batch[0]),
					maxRateLimitWait: options.maxRateLimitWait as number | undefined,
				});
			} catch (error) {
				if (!this.continueOnFail()) throw asNodeError(this, error, origin.get(batch[0]));
				for (const key of batch) {
					output.push({
						json: { product_key: key, deleted: false, error: (error as Error).message },
						pairedItem: { item: origin.get(key) ?? 0 },
					});
				}
				continue;
			}
			const list = adsData<IDataObject>(body)?.delete_products;
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
					: { product_key: key, deleted: false, failed_product_key: key, message: 'The service returned no result for this key' };
				output.push({ json, pairedItem: { item: origin.get(key) ?? 0 } });
			}
		}
		return output;
	},
};
