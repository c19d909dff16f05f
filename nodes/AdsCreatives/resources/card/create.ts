import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { accountIdProperty, accountPath, adsRequest } from '../../common';
import { CARD_LABELS, cardSchema } from './schema';

const show = showFor('card', 'create');
const builder = (extra: IDataObject) => showFor('card', 'create', { mode: ['builder'], ...extra });

const properties: INodeProperties[] = [
	accountIdProperty('card', ['create']),
	{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true, displayOptions: show, description: 'Card name, at most 80 characters' },
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		default: 'builder',
		displayOptions: show,
		options: [
			{ name: 'Builder', value: 'builder' },
			{ name: 'Raw JSON (Components or Slides)', value: 'json' },
		],
	},
	{
		displayName: 'Media',
		name: 'mediaType',
		type: 'options',
		default: 'MEDIA',
		displayOptions: builder({}),
		options: [
			{ name: 'One Image or Video (MEDIA)', value: 'MEDIA' },
			{ name: 'Swipeable Carousel (SWIPEABLE_MEDIA)', value: 'SWIPEABLE_MEDIA' },
		],
	},
	{ displayName: 'Media Keys', name: 'mediaKeys', type: 'string', default: '', required: true, displayOptions: builder({}), placeholder: '3_1234567890', description: 'One media key for MEDIA, 2-6 comma-separated for SWIPEABLE_MEDIA (media of the account\'s library)' },
	{
		displayName: 'Action',
		name: 'action',
		type: 'options',
		default: 'DETAILS',
		displayOptions: builder({}),
		options: [
			{ name: 'Details (Title and Website)', value: 'DETAILS' },
			{ name: 'Button (App Destination)', value: 'BUTTON' },
		],
	},
	{ displayName: 'Title', name: 'title', type: 'string', default: '', displayOptions: builder({ action: ['DETAILS'] }) },
	{ displayName: 'Website URL', name: 'websiteUrl', type: 'string', default: '', placeholder: 'https://example.com', displayOptions: builder({ action: ['DETAILS'] }) },
	{
		displayName: 'Button Label',
		name: 'label',
		type: 'options',
		default: 'INSTALL',
		displayOptions: builder({ action: ['BUTTON'] }),
		options: ['BOOK', 'CONNECT', 'INSTALL', 'OPEN', 'ORDER', 'PLAY', 'SHOP'].map((v) => ({ name: v.charAt(0) + v.slice(1).toLowerCase(), value: v })),
	},
	{
		displayName: 'App Destination',
		name: 'app',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: builder({ action: ['BUTTON'] }),
		options: [
			{ displayName: 'Country Code', name: 'country_code', type: 'string', default: '', placeholder: 'US' },
			{ displayName: 'Store A App ID', name: 'partneraplay_app_id', type: 'string', default: '' },
			{ displayName: 'Store A Deep Link', name: 'partneraplay_deep_link', type: 'string', default: '' },
			{ displayName: 'Store B App ID', name: 'partnerb_app_store_identifier', type: 'string', default: '' },
			{ displayName: 'Store B Deep Link', name: 'partnerb_deep_link', type: 'string', default: '' },
		],
	},
	{
		displayName: 'Card JSON',
		name: 'cardJson',
		type: 'json',
		default: '{\n  "components": []\n}',
		displayOptions: showFor('card', 'create', { mode: ['json'] }),
		description: 'An object with "components" (array) or "slides" (array of arrays), validated like the builder',
	},
];

function buildComponents(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const keys = String(ctx.getNodeParameter('mediaKeys', itemIndex, ''))
		.split(',')
		.map((k) => k.trim())
		.filter(Boolean);
	const mediaType = ctx.getNodeParameter('mediaType', itemIndex, 'MEDIA') as string;
	const media: IDataObject = mediaType === 'MEDIA' ? { type: 'MEDIA', media_key: keys.length === 1 ? keys[0] : keys.join(',') } : { type: 'SWIPEABLE_MEDIA', media_keys: keys };
	const action = ctx.getNodeParameter('action', itemIndex, 'DETAILS') as string;
	if (action === 'DETAILS') {
		return [media, { type: 'DETAILS', title: ctx.getNodeParameter('title', itemIndex, ''), destination: { type: 'WEBSITE', url: ctx.getNodeParameter('websiteUrl', itemIndex, '') } }];
	}
	const app = Object.fromEntries(
		Object.entries(ctx.getNodeParameter('app', itemIndex, {}) as IDataObject).filter(([, v]) => v !== '' && v !== undefined),
	);
	return [media, { type: 'BUTTON', label: { type: 'ENUM', value: ctx.getNodeParameter('label', itemIndex) }, destination: { type: 'APP', ...app } }];
}

export const create: ItemOperation = {
	option: { name: 'Create', value: 'create', description: 'Create a component-based card (website or app)', action: 'Create a card' },
	properties,
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const name = this.getNodeParameter('name', itemIndex, '') as string;
		let card: IDataObject;
		if (this.getNodeParameter('mode', itemIndex, 'builder') === 'json') {
			const raw = this.getNodeParameter('cardJson', itemIndex, '{}');
			let parsed: unknown = raw;
			if (typeof raw === 'string') {
				try {
					parsed = JSON.parse(raw);
				} catch {
					throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Card JSON is not valid JSON`, { itemIndex });
				}
			}
			card = { name, ...(parsed as IDataObject) };
		} else {
			card = { name, components: buildComponents(this, itemIndex) };
		}
		const body = validateInput(this.getNode(), cardSchema, card, itemIndex, CARD_LABELS);
		const response = await adsRequest(this, { method: 'POST', path: accountPath(this, itemIndex, '/cards'), body: body as IDataObject, itemIndex });
		return unwrapData<IDataObject>(response);
	},
};
