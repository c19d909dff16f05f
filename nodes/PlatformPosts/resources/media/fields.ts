import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { z } from 'zod';

import { CONTRACT_MEDIA_FIELDS } from '../../../shared/contractFields';
import { splitList } from '../../../shared/lists';

/** The Media ID field of the operations on an uploaded file (the id the upload returned). */
export function mediaIdProperty(description: string): INodeProperties {
	return {
		displayName: 'Media ID',
		name: 'mediaId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1455952740635586573',
		description,
	};
}

/** The Media Fields of the media lookups (Get, Get Many). */
export const mediaFieldsProperty: INodeProperties = {
	displayName: 'Media Fields',
	name: 'mediaFields',
	type: 'multiOptions',
	default: [],
	options: CONTRACT_MEDIA_FIELDS.map((value) => ({ name: value, value })),
	description:
		'Fields of each media object to return besides its media key and type (media.fields). Non-public, organic and promoted metrics are only returned for your own media, with a user-context credential.',
};

export function mediaFieldsQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = (ctx.getNodeParameter('mediaFields', itemIndex, []) as string[]) ?? [];
	return fields.length ? { 'media.fields': fields.join(',') } : {};
}

/** A media key as the service writes it: <media type number>_<media id>, e.g. 3_1455952740635586573. */
export const MEDIA_KEY_REGEX = /^\d+_\d{1,19}$/;

/** The lookups take at most 100 media keys per request. */
export const MEDIA_KEY_BATCH = 100;

/** Media keys from a list separated by commas, spaces or new lines, deduplicated; the rest as invalid. */
export function mediaKeysFrom(raw: unknown): { keys: string[]; invalid: string[] } {
	const keys: string[] = [];
	const invalid: string[] = [];
	for (const part of splitList(raw)) {
		if (!MEDIA_KEY_REGEX.test(part)) invalid.push(part);
		else if (!keys.includes(part)) keys.push(part);
	}
	return { keys, invalid };
}

/** The Media Keys field of the operations on several media (Get Many, Get Analytics). */
export function mediaKeysProperty(description: string): INodeProperties {
	return {
		displayName: 'Media Keys',
		name: 'mediaKeys',
		type: 'string',
		default: '',
		required: true,
		placeholder: '3_1455952740635586573, 13_1455952740635586574',
		description,
	};
}

/** Reads the Media Keys field: at least one, every key well formed, else a refusal naming the item. */
export function readMediaKeys(
	ctx: IExecuteFunctions,
	itemIndex: number,
	max = Number.POSITIVE_INFINITY,
): string[] {
	const { keys, invalid } = mediaKeysFrom(ctx.getNodeParameter('mediaKeys', itemIndex, ''));
	const refuse = (message: string, description?: string) =>
		new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${message}`, {
			itemIndex,
			description,
		});
	if (invalid.length)
		throw refuse(
			`Media Keys: "${invalid[0]}" is not a media key (digits, an underscore, digits, e.g. 3_1455952740635586573)`,
			invalid.length > 1 ? `Also not valid: ${invalid.slice(1, 10).join(', ')}` : undefined,
		);
	if (!keys.length) throw refuse('Media Keys is empty');
	if (keys.length > max) throw refuse(`Media Keys: at most ${max} (got ${keys.length})`);
	return keys;
}

/** The Video Category field of the subtitle operations: the category the video was uploaded in. */
export const videoCategoryProperty: INodeProperties = {
	displayName: 'Video Category',
	name: 'videoCategory',
	type: 'options',
	default: 'TweetVideo',
	options: [
		{
			name: 'Post Video',
			value: 'TweetVideo',
			description: 'A video uploaded for posts (Upload with Purpose: Post)',
		},
		{
			name: 'Ad Video',
			value: 'AmplifyVideo',
			description: 'A video uploaded for the ads API (Upload with Purpose: Ad Video or Ad Image)',
		},
	],
	description: 'What the video was uploaded for',
};

/** The Language Code field of the subtitle operations. */
export const languageCodeProperty: INodeProperties = {
	displayName: 'Language Code',
	name: 'languageCode',
	type: 'string',
	default: 'EN',
	required: true,
	placeholder: 'EN',
	description: 'The language of the subtitles as a two-letter ISO 639-1 code (EN, ES, DE, ...)',
};

/** The video and language the subtitle operations act on, checked before any request. */
export const subtitleTargetSchema = {
	id: z.string().regex(/^\d{1,19}$/, 'is not a media ID (1-19 digits)'),
	media_category: z.enum(['TweetVideo', 'AmplifyVideo'], {
		errorMap: () => ({ message: 'must be Post Video or Ad Video' }),
	}),
	language_code: z
		.string()
		.regex(/^[A-Za-z]{2}$/, 'is not a two-letter language code (e.g. EN)')
		.transform((v) => v.toUpperCase()),
};

export const SUBTITLE_TARGET_LABELS = {
	id: 'Video Media ID',
	media_category: 'Video Category',
	language_code: 'Language Code',
};

/** The subtitle target's fields as the user entered them. */
export function subtitleTargetInput(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return {
		id: String(ctx.getNodeParameter('mediaId', itemIndex, '') ?? '').trim(),
		media_category: String(ctx.getNodeParameter('videoCategory', itemIndex, 'TweetVideo')),
		language_code: String(ctx.getNodeParameter('languageCode', itemIndex, '') ?? '').trim(),
	};
}
