import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BatchOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import type { PlatformContext, PlatformRequest } from '../../../shared/transport';
import { platformRequest } from '../../../shared/transport';
import { adsData, catalogIdOf, catalogLocator, catalogPath, optionsCollection, readOptions } from '../../common';
import {
	AGE_GROUP,
	AVAILABILITY,
	CONDITION,
	GENDER,
	normalizeProduct,
	checkProduct,
	variantProblems,
} from '../../productSchema';

/** The service takes at most 25 products per PUT. */
export const BATCH_SIZE = 25;
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 10;

const show = (extra: IDataObject = {}) => showFor('product', 'push', extra);
const optionList = (values: readonly string[]) => values.map((v) => ({ name: v, value: v }));

const manualFields: INodeProperties[] = [
	{
		displayName: 'Product ID',
		name: 'productId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: show({ mapping: ['manual'] }),
		description: 'Unique item ID, the SKU if possible. An ID the catalog knows updates that product; a new one creates a product.',
	},
	{
		displayName: 'Title',
		name: 'productTitle',
		type: 'string',
		default: '',
		required: true,
		displayOptions: show({ mapping: ['manual'] }),
		description: 'Same name as on the product page, at most 150 characters',
	},
	{
		displayName: 'Description',
		name: 'productDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		displayOptions: show({ mapping: ['manual'] }),
		description: 'Plain text (no HTML), at most 5,000 characters',
	},
	{
		displayName: 'Availability',
		name: 'availability',
		type: 'options',
		options: optionList(AVAILABILITY),
		default: 'in stock',
		required: true,
		displayOptions: show({ mapping: ['manual'] }),
	},
	{
		displayName: 'Condition',
		name: 'condition',
		type: 'options',
		options: optionList(CONDITION),
		default: 'new',
		required: true,
		displayOptions: show({ mapping: ['manual'] }),
	},
	{
		displayName: 'Price',
		name: 'price',
		type: 'string',
		default: '',
		required: true,
		placeholder: '19.99 USD',
		displayOptions: show({ mapping: ['manual'] }),
		description: 'A number with "." as decimal point, a space and the ISO 4217 currency code',
	},
	{
		displayName: 'Link',
		name: 'link',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://shop.example/products/blue-shirt',
		displayOptions: show({ mapping: ['manual'] }),
		description: 'The product page (https)',
	},
	{
		displayName: 'Image Link',
		name: 'imageLink',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://shop.example/images/blue-shirt.jpg',
		displayOptions: show({ mapping: ['manual'] }),
		description: 'The main image URL (http or https; JPG, GIF, WEBP or PNG; at least 500x500 px; at most 5 MB)',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show({ mapping: ['manual'] }),
		options: [
			{ displayName: 'Additional Image Links', name: 'additional_image_link', type: 'string', default: '', description: 'Up to 10 image URLs (http or https), comma-separated' },
			{ displayName: 'Age Group', name: 'age_group', type: 'options', options: optionList(AGE_GROUP), default: 'adult' },
			{ displayName: 'Brand', name: 'brand', type: 'string', default: '', description: 'Required unless GTIN or MPN is given' },
			{ displayName: 'Color', name: 'primaryShade', type: 'string', default: '', description: 'Primary color by name (no hex codes)' },
			{ displayName: 'Custom Label 0', name: 'custom_label_0', type: 'string', default: '' },
			{ displayName: 'Custom Label 1', name: 'custom_label_1', type: 'string', default: '' },
			{ displayName: 'Custom Label 2', name: 'custom_label_2', type: 'string', default: '' },
			{ displayName: 'Custom Label 3', name: 'custom_label_3', type: 'string', default: '' },
			{ displayName: 'Custom Label 4', name: 'custom_label_4', type: 'string', default: '' },
			{ displayName: 'Gender', name: 'gender', type: 'options', options: optionList(GENDER), default: 'unisex' },
			{ displayName: 'GTIN', name: 'gtin', type: 'string', default: '', description: 'UPC, EAN, JAN or ISBN; required unless brand or MPN is given' },
			{ displayName: 'Inventory', name: 'inventory', type: 'number', typeOptions: { minValue: 0 }, default: 1, description: 'Quantity to sell; at least 1 when in stock' },
			{ displayName: 'Item Group ID', name: 'item_group_id', type: 'string', default: '', description: 'Groups variants (size, color, gender, age group); required for variants' },
			{ displayName: 'Mobile Link', name: 'mobile_link', type: 'string', default: '', description: 'Mobile product page (https)' },
			{ displayName: 'MPN', name: 'mpn', type: 'string', default: '', description: 'Manufacturer part number; required unless brand or GTIN is given' },
			{ displayName: 'Product Category', name: 'partnera_product_category', type: 'string', default: '', description: 'Category in the external product taxonomy (path or ID)' },
			{ displayName: 'Product Type', name: 'product_type', type: 'string', default: '', placeholder: 'Apparel > Shirts', description: 'Your own taxonomy, subcategories separated by " > "' },
			{ displayName: 'Sale Price', name: 'sale_price', type: 'string', default: '', placeholder: '14.99 USD', description: 'Lower than the price, same currency and format' },
			{ displayName: 'Sale Price Effective Date', name: 'sale_price_effective_date', type: 'string', default: '', placeholder: '2026-11-27T00:00+01:00/2026-11-30T23:59+01:00', description: 'ISO 8601 range start/end' },
			{ displayName: 'Size', name: 'size', type: 'string', default: '' },
		],
	},
];

function manualProduct(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const { primaryShade, ...additional } = (ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject) ?? {};
	return {
		...(primaryShade !== undefined ? { color: primaryShade } : {}),
		id: ctx.getNodeParameter('productId', itemIndex, ''),
		title: ctx.getNodeParameter('productTitle', itemIndex, ''),
		description: ctx.getNodeParameter('productDescription', itemIndex, ''),
		availability: ctx.getNodeParameter('availability', itemIndex, ''),
		condition: ctx.getNodeParameter('condition', itemIndex, ''),
		price: ctx.getNodeParameter('price', itemIndex, ''),
		link: ctx.getNodeParameter('link', itemIndex, ''),
		image_link: ctx.getNodeParameter('imageLink', itemIndex, ''),
		...additional,
	} as IDataObject;
}

/** A result of one input item. */
interface ItemResult {
	json: IDataObject;
	failed: boolean;
}

function idOf(raw: IDataObject | undefined): string | undefined {
	const value = raw?.id;
	if (value === undefined || value === null) return undefined;
	const id = String(value).trim();
	return id === '' ? undefined : id;
}

function failure(id: unknown, status: string, errors: string[], extra: IDataObject = {}): ItemResult {
	return {
		failed: true,
		json: {
			id: id === undefined || id === null ? null : String(id),
			product_key: null,
			status,
			errors,
			warnings: [],
			error: errors[0],
			...extra,
		},
	};
}

export const push: BatchOperation = {
	option: {
		name: 'Push',
		value: 'push',
		description:
			'Create or update products from the input items (one product per item), checked first, sent in batches of 25',
		action: 'Push products',
	},
	properties: [
		catalogLocator('product', 'push'),
		{
			displayName: 'Product Fields',
			name: 'mapping',
			description: "Where each product's attributes come from: the input item's fields as they are, or set one by one below",
			type: 'options',
			noDataExpression: true,
			displayOptions: show(),
			options: [
				{
					name: 'Automatic',
					value: 'auto',
					description:
						'Read each input item: fields carry the attribute names of the service (the identifier, title, description, availability, condition, price, link, image_link, brand, gtin, sale_price ...); other fields are ignored',
				},
				{ name: 'Field by Field', value: 'manual', description: 'Set each product attribute below, with expressions' },
			],
			default: 'auto',
		},
		...manualFields,
		optionsCollection('product', 'push', [
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
				default: DEFAULT_CONCURRENCY,
				description: `How many batches of ${BATCH_SIZE} products are sent at the same time (1-${MAX_CONCURRENCY})`,
			},
			{
				displayName: 'When Products Are Rejected',
				name: 'onError',
				description: "What to do with invalid products and products the service refuses (separate from the node's own On Error setting)",
				type: 'options',
				options: [
					{
						name: 'Stop',
						value: 'stop',
						description:
							'Check all items first and send nothing if one is invalid; stop at the first product the service refuses',
					},
					{
						name: 'Continue',
						value: 'continue',
						description:
							'Send the valid products; every output item carries its result (status ERROR, INVALID or DUPLICATE_ID with the reasons)',
					},
				],
				default: 'stop',
			},
		]),
	],

	async executeBatch(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
		if (items.length === 0) return [];
		const options = readOptions(this, 0);
		const keepGoing = options.onError === 'continue' || this.continueOnFail();
		const concurrency = Math.min(
			MAX_CONCURRENCY,
			Math.max(1, Math.floor(Number(options.concurrency ?? DEFAULT_CONCURRENCY) || DEFAULT_CONCURRENCY)),
		);
		const catalogId = catalogIdOf(this, 0);
		const mapping = this.getNodeParameter('mapping', 0, 'auto') as string;

		// 1. A cheap pass over all items: read them, find repeated ids and variants without item_group_id.
		const n = items.length;
		const results: Array<ItemResult | undefined> = new Array(n);
		const raws: Array<IDataObject | undefined> = new Array(n);
		const preset = new Map<number, ItemResult>();
		for (let i = 0; i < n; i++) {
			try {
				raws[i] = mapping === 'manual' ? manualProduct(this, i) : (items[i].json ?? {});
			} catch (error) {
				preset.set(i, failure(undefined, 'INVALID', [`the product fields could not be read: ${(error as Error).message}`]));
			}
		}
		const variants = variantProblems(raws);
		const byId = new Map<string, number[]>();
		raws.forEach((raw, i) => {
			const id = idOf(raw);
			if (id === undefined) return;
			const list = byId.get(id);
			if (list) list.push(i);
			else byId.set(id, [i]);
		});
		for (const [id, indexes] of byId) {
			if (indexes.length < 2) continue;
			// The service ignores every instance of a repeated id, so none is sent.
			const message = `id "${id}" appears in items ${indexes.map((i) => i + 1).join(', ')}: the service ignores every instance of a repeated id, so none was sent`;
			for (const i of indexes) preset.set(i, failure(id, 'DUPLICATE_ID', [message]));
		}

		// 2. The zod check of one item: its request body, or its result when it cannot be sent.
		const products: Array<IDataObject | undefined> = new Array(n);
		const check = (i: number): boolean => {
			const known = preset.get(i);
			if (known) {
				results[i] = known;
				return false;
			}
			const { product } = normalizeProduct(raws[i] ?? {});
			const { data, errors } = checkProduct(product);
			const variant = variants.get(i);
			if (variant) errors.push(variant);
			if (errors.length) {
				results[i] = failure(product.id, 'INVALID', errors);
				return false;
			}
			products[i] = data;
			return true;
		};

		if (!keepGoing) {
			// Stop: every item is checked before anything is sent; one invalid item fails the node.
			let first = -1;
			let bad = 0;
			for (let i = 0; i < n; i++) {
				if (!check(i)) {
					bad++;
					if (first === -1) first = i;
				}
			}
			if (first !== -1) {
				const json = results[first]?.json ?? {};
				const errors = (json.errors as string[]) ?? [];
				throw new NodeOperationError(
					this.getNode(),
					`Invalid product in item ${first + 1}${json.id ? ` (id "${String(json.id)}")` : ''}: ${errors[0]}`,
					{
						itemIndex: first,
						description: `${errors.join('\n')}\n\n${bad} of ${n} items are invalid; nothing was sent. Fix them, or set Options > On Error to Continue to send the valid products and get one result per item.`,
					},
				);
			}
		}

		// 3. Batches of at most 25 valid products, assembled in input order as workers ask for them
		// (in Continue mode the check runs just ahead of sending). The cursor only moves forward, so
		// each product is in exactly one batch; retries of a batch (429, 5xx) re-send that batch only.
		let cursor = 0;
		const takeBatch = (): number[] | undefined => {
			const batch: number[] = [];
			while (batch.length < BATCH_SIZE && cursor < n) {
				const i = cursor++;
				if (keepGoing ? check(i) : products[i] !== undefined) batch.push(i);
			}
			return batch.length ? batch : undefined;
		};

		let stopError: NodeOperationError | undefined;
		let pushed = 0;
		const path = catalogPath(catalogId, '/products');
		const maxRateLimitWait = options.maxRateLimitWait as number | undefined;

		const runBatch = async (batch: number[]) => {
			let body: IDataObject;
			try {
				body = await platformRequest.call<PlatformContext, [PlatformRequest], Promise<IDataObject>>(this, {
					method: 'PUT',
					path,
					api: 'ads',
					body: { products: batch.map((i) => products[i]!) },
					itemIndex: batch[0],
					maxRateLimitWait,
				});
			} catch (error) {
				const e = error as Error & { description?: string; httpCode?: string };
				for (const i of batch) {
					results[i] = failure(products[i]!.id, 'ERROR', [e.message], {
						description: e.description ?? null,
						httpCode: e.httpCode ?? null,
					});
				}
				if (!keepGoing && !stopError) {
					stopError = new NodeOperationError(this.getNode(), `The batch with items ${batch[0] + 1}-${batch[batch.length - 1] + 1} failed: ${e.message}`, {
						itemIndex: batch[0],
						description: `${e.description ?? ''} ${pushed} products were pushed before the node stopped.`.trim(),
					});
				}
				return;
			}
			const data = adsData<IDataObject>(body);
			const list = Array.isArray(data?.products_response) ? (data.products_response as IDataObject[]) : [];
			const byResultId = new Map<string, IDataObject>();
			for (const r of list) if (r && r.id !== undefined && r.id !== null) byResultId.set(String(r.id), r);
			batch.forEach((i, position) => {
				const id = String(products[i]!.id);
				const result = byResultId.get(id) ?? (list.length === batch.length ? list[position] : undefined);
				if (!result) {
					results[i] = failure(id, 'ERROR', ['The service returned no result for this product']);
				} else {
					const errors = Array.isArray(result.errors) ? result.errors : [];
					const warnings = Array.isArray(result.warnings) ? result.warnings : [];
					const failed = result.status === 'ERROR';
					results[i] = {
						failed,
						json: {
							id: result.id ?? id,
							product_key: result.product_key ?? null,
							status: result.status ?? null,
							errors,
							warnings,
							...(failed ? { error: errors.length ? errors.map(String).join('; ') : 'The service refused the product' } : {}),
						},
					};
				}
				if (results[i]!.failed && !keepGoing && !stopError) {
					stopError = new NodeOperationError(
						this.getNode(),
						`The service refused the product in item ${i + 1} (id "${id}"): ${String(results[i]!.json.error)}`,
						{
							itemIndex: i,
							description: `The batch's other products were processed; no new batch was started. Set Options > On Error to Continue to push the others and get one result per item.`,
						},
					);
				}
				if (!results[i]!.failed) pushed++;
			});
			// The request bodies are not needed any more: let them go while the other batches run.
			for (const i of batch) products[i] = undefined;
		};

		const worker = async () => {
			while (!stopError) {
				const batch = takeBatch();
				if (!batch) return;
				await runBatch(batch);
			}
		};
		await Promise.all(Array.from({ length: concurrency }, worker));
		if (stopError) throw stopError;

		return results.map((result, i) => ({
			json: result?.json ?? failure(undefined, 'ERROR', ['not processed']).json,
			pairedItem: { item: i },
		}));
	},
};
