import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { splitList } from '../../shared/lists';
import { z } from 'zod';

import { cardUri, objectName, postMediaKeys, userId } from './fields';

/**
 * What draft posts, scheduled posts and posts made through the ad account share: as_user_id, text
 * (required unless there is media), card_uri, media_keys (up to 4 images, or 1 GIF, or 1 video),
 * nullcast, and name for posts and scheduled posts (draft posts take no name: the service names it
 * neither among their creation parameters nor among the fields its SDKs write).
 */

export const postFields = {
	as_user_id: userId,
	text: z.string().max(25000, 'is too long').optional(),
	card_uri: cardUri.optional(),
	media_keys: postMediaKeys.optional(),
	nullcast: z.boolean().optional(),
	name: objectName.optional(),
};

export function needsTextOrMedia(
	post: { text?: string; media_keys?: string[] },
	ctx: z.RefinementCtx,
) {
	if (!post.text && !post.media_keys?.length) {
		ctx.addIssue({ code: 'custom', path: ['text'], message: 'is required when there is no media' });
	}
}

export const POST_LABELS: Record<string, string> = {
	as_user_id: 'Post As (User ID)',
	text: 'Text',
	card_uri: 'Card',
	media_keys: 'Media',
	nullcast: 'Promoted Only',
	name: 'Name',
	scheduled_at: 'Scheduled At',
	'': 'Update Fields',
};

export function asUserIdProperty(
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'Post As (User ID)',
		name: 'asUserId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '756201191646691328',
		displayOptions,
		description:
			'ID of the account the post is published as: a promotable user of the ad account (the service calls it as_user_id)',
	};
}

export function textProperty(displayOptions?: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		displayOptions,
		description: 'Required unless media keys are given',
	};
}

/**
 * How an operation treats Name: sent (posts, scheduled posts), absent (draft post updates) or kept
 * unsent (draft post creation, whose saved workflows may hold a Name that was never a draft field).
 */
export type NameOption = 'sent' | 'none' | 'unsent';

/** The Additional Fields collection of the operations that create a post: the post options, then `extra`. */
export function postAdditionalFields(
	extra: INodeProperties[] = [],
	name: NameOption = 'sent',
): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [...postOptions(name), ...extra],
	};
}

const nameOption: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'A name to find the post by (at most 80 characters)',
};

export function postOptions(name: NameOption = 'sent'): INodeProperties[] {
	const names: INodeProperties[] =
		name === 'none'
			? []
			: name === 'unsent'
				? [
						{
							...nameOption,
							description:
								'Not sent: draft posts take no name (a draft keeps none). Kept so that workflows that set it still open.',
						},
					]
				: [nameOption];
	return [
		{
			displayName: 'Card',
			name: 'card_uri',
			type: 'string',
			default: '',
			placeholder: 'card://1234567890',
			description: 'A card of the ad account to attach, given by its card URI (card://…)',
		},
		{
			displayName: 'Media',
			name: 'media_keys',
			type: 'string',
			default: '',
			placeholder: '3_1234567890, 3_1234567891',
			description:
				'Media of the media library to attach: up to 4 images, or 1 GIF, or 1 video, given by their comma-separated media keys',
		},
		...names,
		{
			displayName: 'Promoted Only',
			name: 'nullcast',
			type: 'boolean',
			default: true,
			description:
				"Whether the post appears only as an ad, not on the account's timeline or to its followers (the service calls this nullcast)",
		},
	];
}

/** Reads the post fields of one item into API names (not yet validated; unset ones left out). */
export function readPost(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: IDataObject,
	top: { asUserId?: boolean; text?: boolean; name?: boolean },
): IDataObject {
	const out: IDataObject = {};
	if (top.asUserId) out.as_user_id = String(ctx.getNodeParameter('asUserId', itemIndex, '')).trim();
	const text = top.text ? (ctx.getNodeParameter('text', itemIndex, '') as string) : fields.text;
	if (text) out.text = String(text);
	if (fields.as_user_id) out.as_user_id = String(fields.as_user_id).trim();
	if (fields.card_uri) out.card_uri = String(fields.card_uri).trim();
	const keys = splitList(fields.media_keys);
	if (keys.length) out.media_keys = keys;
	if (fields.nullcast !== undefined) out.nullcast = Boolean(fields.nullcast);
	if (top.name !== false && fields.name) out.name = String(fields.name);
	return out;
}

/** Query parameters for the API: media keys as a comma list. */
export function toParams(post: IDataObject): IDataObject {
	const out: IDataObject = { ...post };
	if (Array.isArray(post.media_keys)) out.media_keys = (post.media_keys as string[]).join(',');
	for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
	return out;
}
