import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { AGE_GROUP, AVAILABILITY, CONDITION, GENDER } from '../../productSchema';
import { BATCH_SIZE, DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './pushEngine';
import { ADAPTIVE_MAX_CONCURRENCY } from './pushPace';

const optionList = (values: readonly string[]) => values.map((v) => ({ name: v, value: v }));

/** The Field by Field product attributes (shown when Product Fields is Field by Field). */
const manualFields: INodeProperties[] = [
	{
		displayName: 'Product ID',
		name: 'productId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { mapping: ['manual'] } },
		description:
			'Unique item ID, the SKU if possible. An ID the catalog knows updates that product; a new one creates a product.',
	},
	{
		displayName: 'Title',
		name: 'productTitle',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { mapping: ['manual'] } },
		description: 'Same name as on the product page, at most 150 characters',
	},
	{
		displayName: 'Description',
		name: 'productDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		displayOptions: { show: { mapping: ['manual'] } },
		description: 'Plain text (no HTML), at most 5,000 characters',
	},
	{
		displayName: 'Availability',
		name: 'availability',
		type: 'options',
		options: optionList(AVAILABILITY),
		default: 'in stock',
		required: true,
		displayOptions: { show: { mapping: ['manual'] } },
	},
	{
		displayName: 'Condition',
		name: 'condition',
		type: 'options',
		options: optionList(CONDITION),
		default: 'new',
		required: true,
		displayOptions: { show: { mapping: ['manual'] } },
	},
	{
		displayName: 'Price',
		name: 'price',
		type: 'string',
		default: '',
		required: true,
		placeholder: '19.99 USD',
		displayOptions: { show: { mapping: ['manual'] } },
		description: 'A number with "." as decimal point, a space and the ISO 4217 currency code',
	},
	{
		displayName: 'Link',
		name: 'link',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://shop.example/products/blue-shirt',
		displayOptions: { show: { mapping: ['manual'] } },
		description: 'The product page (https)',
	},
	{
		displayName: 'Image Link',
		name: 'imageLink',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://shop.example/images/blue-shirt.jpg',
		displayOptions: { show: { mapping: ['manual'] } },
		description:
			'The main image URL (http or https; JPG, GIF, WEBP or PNG; at least 500x500 px; at most 5 MB)',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { mapping: ['manual'] } },
		options: [
			{
				displayName: 'Additional Image Links',
				name: 'additional_image_link',
				type: 'string',
				default: '',
				description: 'Up to 10 image URLs (http or https), comma-separated',
			},
			{
				displayName: 'Age Group',
				name: 'age_group',
				type: 'options',
				options: optionList(AGE_GROUP),
				default: 'adult',
			},
			{
				displayName: 'Brand',
				name: 'brand',
				type: 'string',
				default: '',
				description: 'Required unless GTIN or MPN is given',
			},
			{
				displayName: 'Color',
				name: 'primaryShade',
				type: 'string',
				default: '',
				description: 'Primary color by name (no hex codes)',
			},
			{ displayName: 'Custom Label 0', name: 'custom_label_0', type: 'string', default: '' },
			{ displayName: 'Custom Label 1', name: 'custom_label_1', type: 'string', default: '' },
			{ displayName: 'Custom Label 2', name: 'custom_label_2', type: 'string', default: '' },
			{ displayName: 'Custom Label 3', name: 'custom_label_3', type: 'string', default: '' },
			{ displayName: 'Custom Label 4', name: 'custom_label_4', type: 'string', default: '' },
			{
				displayName: 'Gender',
				name: 'gender',
				type: 'options',
				options: optionList(GENDER),
				default: 'unisex',
			},
			{
				displayName: 'GTIN',
				name: 'gtin',
				type: 'string',
				default: '',
				description: 'UPC, EAN, JAN or ISBN; required unless brand or MPN is given',
			},
			{
				displayName: 'Inventory',
				name: 'inventory',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 1,
				description: 'Quantity to sell; at least 1 when in stock',
			},
			{
				displayName: 'Item Group ID',
				name: 'item_group_id',
				type: 'string',
				default: '',
				description: 'Groups variants (size, color, gender, age group); required for variants',
			},
			{
				displayName: 'Mobile Link',
				name: 'mobile_link',
				type: 'string',
				default: '',
				description: 'Mobile product page (https)',
			},
			{
				displayName: 'MPN',
				name: 'mpn',
				type: 'string',
				default: '',
				description: 'Manufacturer part number; required unless brand or GTIN is given',
			},
			{
				displayName: 'Product Category',
				name: 'partnera_product_category',
				type: 'string',
				default: '',
				description: 'Category in the external product taxonomy (path or ID)',
			},
			{
				displayName: 'Product Type',
				name: 'product_type',
				type: 'string',
				default: '',
				placeholder: 'Apparel > Shirts',
				description: 'Your own taxonomy, subcategories separated by " > "',
			},
			{
				displayName: 'Sale Price',
				name: 'sale_price',
				type: 'string',
				default: '',
				placeholder: '14.99 USD',
				description: 'Lower than the price, same currency and format',
			},
			{
				displayName: 'Sale Price Effective Date',
				name: 'sale_price_effective_date',
				type: 'string',
				default: '',
				placeholder: '2026-11-27T00:00+01:00/2026-11-30T23:59+01:00',
				description: 'ISO 8601 range start/end',
			},
			{ displayName: 'Size', name: 'size', type: 'string', default: '' },
		],
	},
];

/** The product attributes of item `itemIndex` in Field by Field mode. */
export function manualProduct(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const { primaryShade, ...additional } =
		(ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject) ?? {};
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

/** The fields of Product > Push. */
export const pushFields: INodeProperties[] = [
	{
		displayName: 'Product Fields',
		name: 'mapping',
		description:
			"Where each product's attributes come from: the input item's fields as they are, or set one by one below",
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Automatic',
				value: 'auto',
				description:
					'Read each input item: fields carry the attribute names of the service (the identifier, title, description, availability, condition, price, link, image_link, brand, gtin, sale_price ...); other fields are ignored',
			},
			{
				name: 'Field by Field',
				value: 'manual',
				description: 'Set each product attribute below, with expressions',
			},
		],
		default: 'auto',
	},
	...manualFields,
];

/** The Options of Product > Push besides Max Rate Limit Wait. */
export const pushOptions: INodeProperties[] = [
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		default: DEFAULT_CONCURRENCY,
		description: `How many batches of ${BATCH_SIZE} products are sent at the same time (1-${MAX_CONCURRENCY}). Without this option, version 2 of the node starts at ${DEFAULT_CONCURRENCY} and follows the rate-limit headers of the answers (up to ${ADAPTIVE_MAX_CONCURRENCY} at once, never more than half the requests left in the window; after a 429 it waits for the reset); version 1 sends ${DEFAULT_CONCURRENCY} at once.`,
	},
	{
		displayName: 'When Products Are Rejected',
		name: 'onError',
		description:
			"What to do with invalid products and products the service refuses (separate from the node's own On Error setting)",
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
];
