import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { splitList } from '../../../shared/lists';

import type { OperationContext } from '../../../shared/router';
import { NodeOperationError } from 'n8n-workflow';

import { addToLibrary, mediaSourceProperty, readMediaBinary } from '../../shared/media';

/**
 * The card builder of Create and Update: one media component (MEDIA or SWIPEABLE_MEDIA) plus
 * DETAILS (title + website) or BUTTON (label + app destination), or raw JSON (components or slides).
 */

const OPS = ['create', 'update'];
const builder = (extra: IDataObject = {}) => ({
	show: { operation: OPS, mode: ['builder'], ...extra },
});

export const modeProperties: INodeProperties[] = [
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		default: 'builder',
		// Both Mode fields come with Create, so that Update shows its own before the shared builder fields.
		displayOptions: { show: { operation: ['create'] } },
		options: [
			{
				name: 'Builder',
				value: 'builder',
				description: 'One media component plus details or a button',
			},
			{
				name: 'Raw JSON (Components or Slides)',
				value: 'json',
				description: 'For multi-destination carousels and power users',
			},
		],
	},
	{
		displayName: 'Components',
		name: 'mode',
		type: 'options',
		default: 'keep',
		displayOptions: { show: { operation: ['update'] } },
		options: [
			{ name: 'Keep', value: 'keep', description: 'Leave the components as they are' },
			{ name: 'Replace With Builder', value: 'builder' },
			{ name: 'Replace With Raw JSON (Components or Slides)', value: 'json' },
		],
	},
];

export const builderProperties: INodeProperties[] = [
	{
		displayName: 'Media Layout',
		name: 'mediaType',
		type: 'options',
		default: 'MEDIA',
		displayOptions: builder(),
		options: [
			{ name: 'One Image or Video (MEDIA)', value: 'MEDIA' },
			{ name: 'Swipeable Carousel (SWIPEABLE_MEDIA)', value: 'SWIPEABLE_MEDIA' },
		],
	},
	mediaSourceProperty('mediaSource', builder()),
	{
		displayName: 'Media Items',
		name: 'mediaKeys',
		type: 'string',
		default: '',
		required: true,
		displayOptions: builder({ mediaSource: ['mediaKey'] }),
		placeholder: '3_1234567890',
		description:
			"Media of the account's media library, given by media key: one for a single image or video, 2-6 comma-separated for a swipeable carousel",
	},
	{
		displayName: 'Input Binary Fields',
		name: 'mediaBinaryProperties',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: builder({ mediaSource: ['binary'] }),
		placeholder: 'data, image2',
		description:
			"The input binary fields holding the images or videos: one for MEDIA, 2-6 comma-separated for SWIPEABLE_MEDIA. Each is uploaded (videos as ad videos), added to the account's media library, and its media key used.",
	},
	{
		displayName: 'Action',
		name: 'action',
		type: 'options',
		default: 'DETAILS',
		displayOptions: builder(),
		options: [
			{ name: 'Details (Title and Website)', value: 'DETAILS' },
			{ name: 'Button (App Destination)', value: 'BUTTON' },
		],
	},
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		displayOptions: builder({ action: ['DETAILS'] }),
	},
	{
		displayName: 'Website URL',
		name: 'websiteUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com',
		displayOptions: builder({ action: ['DETAILS'] }),
	},
	{
		displayName: 'Button Label',
		name: 'label',
		type: 'options',
		default: 'INSTALL',
		displayOptions: builder({ action: ['BUTTON'] }),
		options: ['BOOK', 'CONNECT', 'INSTALL', 'OPEN', 'ORDER', 'PLAY', 'SHOP'].map((v) => ({
			name: v.charAt(0) + v.slice(1).toLowerCase(),
			value: v,
		})),
	},
	{
		displayName: 'App Destination',
		name: 'app',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: builder({ action: ['BUTTON'] }),
		description:
			'Country code and at least one store app ID; each deep link only with its store app ID',
		options: [
			{
				displayName: 'Country Code',
				name: 'country_code',
				type: 'string',
				default: '',
				placeholder: 'US',
				description: 'ISO 3166-1 alpha-2',
			},
			{
				displayName: 'Store A App ID',
				name: 'partneraplay_app_id',
				type: 'string',
				default: '',
				description: 'Package name in the first mobile app store',
			},
			{
				displayName: 'Store A Deep Link',
				name: 'partneraplay_deep_link',
				type: 'string',
				default: '',
			},
			{
				displayName: 'Store B App ID',
				name: 'partnerb_app_store_identifier',
				type: 'string',
				default: '',
				description: 'Identifier in the second mobile app store',
			},
			{ displayName: 'Store B Deep Link', name: 'partnerb_deep_link', type: 'string', default: '' },
		],
	},
	{
		displayName: 'Card JSON',
		name: 'cardJson',
		type: 'json',
		default: '{\n  "components": []\n}',
		displayOptions: { show: { operation: OPS, mode: ['json'] } },
		description:
			'An object with "components" (array) or "slides" (array of arrays), validated like the builder',
	},
];

/** The binary properties the builder's media comes from; empty when it takes media keys. */
export function cardBinaryProperties(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const mode = ctx.getNodeParameter('mode', itemIndex, 'builder') as string;
	if (mode !== 'builder' || ctx.getNodeParameter('mediaSource', itemIndex, 'mediaKey') !== 'binary')
		return [];
	const properties = splitList(ctx.getNodeParameter('mediaBinaryProperties', itemIndex, ''));
	if (!properties.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: Input Binary Fields: give at least one input binary field`,
			{ itemIndex },
		);
	}
	return properties;
}

/** Stand-in keys (never sent) so that the card is validated before anything is uploaded. */
const placeholderKeys = (count: number) => Array.from({ length: count }, (_, i) => `0_${i + 1}`);

function builtComponents(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const binaries = cardBinaryProperties(ctx, itemIndex);
	const keys = binaries.length
		? placeholderKeys(binaries.length)
		: splitList(ctx.getNodeParameter('mediaKeys', itemIndex, ''));
	const mediaType = ctx.getNodeParameter('mediaType', itemIndex, 'MEDIA') as string;
	// A MEDIA component with several keys is passed on as one string, so validation names it.
	const media: IDataObject =
		mediaType === 'MEDIA'
			? { type: 'MEDIA', media_key: keys.join(',') }
			: { type: 'SWIPEABLE_MEDIA', media_keys: keys };
	const action = ctx.getNodeParameter('action', itemIndex, 'DETAILS') as string;
	if (action === 'DETAILS') {
		const url = ctx.getNodeParameter('websiteUrl', itemIndex, '') as string;
		return [
			media,
			{
				type: 'DETAILS',
				title: ctx.getNodeParameter('title', itemIndex, ''),
				destination: { type: 'WEBSITE', url },
			},
		];
	}
	const app = Object.fromEntries(
		Object.entries(ctx.getNodeParameter('app', itemIndex, {}) as IDataObject).filter(
			([, v]) => v !== '' && v !== undefined,
		),
	);
	const label = { type: 'ENUM', value: ctx.getNodeParameter('label', itemIndex) };
	return [media, { type: 'BUTTON', label, destination: { type: 'APP', ...app } }];
}

/** The components (or slides) the user gave, not yet validated; {} when Update keeps them. */
export function cardContent(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = ctx.getNodeParameter('mode', itemIndex, 'builder') as string;
	if (mode === 'keep') return {};
	if (mode === 'builder') return { components: builtComponents(ctx, itemIndex) };
	const raw = ctx.getNodeParameter('cardJson', itemIndex, '{}');
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = JSON.parse(raw);
		} catch {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Card JSON is not valid JSON`,
				{ itemIndex },
			);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid input in item ${itemIndex + 1}: Card JSON must be an object with "components" or "slides"`,
			{ itemIndex },
		);
	}
	return parsed as IDataObject;
}

/**
 * Uploads the builder's binary media (all files checked first), adds each to the media library and
 * puts the media keys into the validated card's media component.
 */
export async function useUploadedMedia(
	ctx: OperationContext,
	itemIndex: number,
	card: IDataObject,
	properties: string[],
): Promise<IDataObject[]> {
	const pending = [];
	for (const property of properties) {
		pending.push(
			await readMediaBinary(ctx, itemIndex, property, 'Input Binary Fields', ['image', 'video']),
		);
	}
	const added = [];
	for (const file of pending) added.push(await addToLibrary(ctx, itemIndex, file));
	const keys = added.map((a) => a.media_key);
	for (const component of (card.components as IDataObject[] | undefined) ?? []) {
		if (component.type === 'MEDIA') component.media_key = keys[0];
		if (component.type === 'SWIPEABLE_MEDIA') component.media_keys = keys;
	}
	return added.map((a) => ({ media_key: a.media_key, media_id: a.id }));
}
