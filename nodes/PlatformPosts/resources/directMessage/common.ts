import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	CONTRACT_MEDIA_FIELDS,
	CONTRACT_USER_FIELDS,
	joinedFieldsQuery,
} from '../../../shared/contractFields';
import type { OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { uploadBinaryProperty } from '../../../shared/media';

/**
 * What the direct message operations share: the message fields (text and one media attachment, as
 * Send, Send to Conversation and Create Group Conversation take them) and the event reads' fields,
 * expansions and the merging of expanded objects beside each event.
 */

/** The service takes at most 10,000 characters of message text. */
export const MAX_TEXT = 10_000;

/** The message's text and attachment fields. */
export const messageProperties: INodeProperties[] = [
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description:
			'The message text (up to 10,000 characters). May be empty when an attachment is sent.',
	},
	{
		displayName: 'Attachment',
		name: 'attachment',
		type: 'options',
		default: 'none',
		options: [
			{ name: 'None', value: 'none' },
			{
				name: 'Binary File',
				value: 'binary',
				description: 'Upload a file from the input item, then attach it',
			},
			{ name: 'Media ID', value: 'mediaId', description: 'Attach media uploaded earlier' },
		],
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { attachment: ['binary'] } },
		description: 'The name of the input binary field holding the image, GIF or video to send',
	},
	{
		displayName: 'Media ID',
		name: 'mediaId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1455952740635586573',
		displayOptions: { show: { attachment: ['mediaId'] } },
		description: 'The ID of media uploaded earlier (1-19 digits)',
	},
];

export function invalidInput(ctx: OperationContext, itemIndex: number, message: string) {
	return new NodeOperationError(
		ctx.getNode(),
		`Invalid input in item ${itemIndex + 1}: ${message}`,
		{
			itemIndex,
		},
	);
}

/** The checks of a message that need no request: text or an attachment, the length, the media ID. */
export function checkMessage(ctx: OperationContext, itemIndex: number) {
	const text = String(ctx.getNodeParameter('text', itemIndex, '') ?? '');
	const attachment = ctx.getNodeParameter('attachment', itemIndex, 'none') as string;
	if (!text.trim() && attachment === 'none')
		throw invalidInput(ctx, itemIndex, 'Text: a message needs text or an attachment');
	if (text.length > MAX_TEXT)
		throw invalidInput(ctx, itemIndex, `Text: at most ${MAX_TEXT} characters (got ${text.length})`);
	let mediaId: string | undefined;
	if (attachment === 'mediaId') {
		mediaId = String(ctx.getNodeParameter('mediaId', itemIndex, '')).trim();
		if (!/^\d{1,19}$/.test(mediaId))
			throw invalidInput(ctx, itemIndex, `Media ID: "${mediaId}" is not a media ID (1-19 digits)`);
	}
	return { text, attachment, mediaId };
}

/**
 * The message body `{text?, attachments?}`: a binary attachment is uploaded first (as a direct
 * message attachment), so call it once every other input of the item has been checked.
 */
export async function messageBody(
	ctx: OperationContext,
	itemIndex: number,
	checked: ReturnType<typeof checkMessage>,
): Promise<{ body: IDataObject; media: IDataObject }> {
	let mediaId = checked.mediaId;
	let mediaKey: string | undefined;
	if (checked.attachment === 'binary') {
		const property = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
		const uploaded = await uploadBinaryProperty.call(ctx, itemIndex, property, { purpose: 'dm' });
		mediaId = uploaded.id;
		mediaKey = uploaded.media_key || undefined;
	}
	const body: IDataObject = {};
	if (checked.text.trim()) body.text = checked.text;
	if (mediaId) body.attachments = [{ media_id: mediaId }];
	return {
		body,
		media: {
			...(mediaId ? { media_id: mediaId } : {}),
			...(mediaKey ? { media_key: mediaKey } : {}),
		},
	};
}

/** The answer of a message send: `{dm_conversation_id, dm_event_id}`. */
export function sentMessage(response: unknown): IDataObject {
	return unwrapData<IDataObject>(response) ?? {};
}

/** The service's fields and expansions of direct message event reads. */
export const DM_EVENT_FIELDS = [
	'attachments',
	'created_at',
	'dm_conversation_id',
	'entities',
	'event_type',
	'id',
	'participant_ids',
	'referenced_tweets',
	'sender_id',
	'text',
];
export const DM_EVENT_EXPANSIONS = [
	'attachments.media_keys',
	'participant_ids',
	'referenced_tweets.id',
	'sender_id',
];
export const DM_POST_FIELDS = [
	'article',
	'attachments',
	'author_id',
	'card_uri',
	'community_id',
	'context_annotations',
	'conversation_id',
	'created_at',
	'display_text_range',
	'edit_controls',
	'edit_history_tweet_ids',
	'entities',
	'geo',
	'id',
	'in_reply_to_user_id',
	'lang',
	'media_metadata',
	'non_public_metrics',
	'note_tweet',
	'organic_metrics',
	'possibly_sensitive',
	'promoted_metrics',
	'public_metrics',
	'referenced_tweets',
	'reply_settings',
	'scopes',
	'source',
	'suggested_source_links',
	'suggested_source_links_with_counts',
	'text',
	'withheld',
];

const choices = (values: string[]) => values.map((value) => ({ name: value, value }));

/** Fields and expansions of the event reads, in one Fields collection (the wire names as options). */
export const eventFieldsProperty: INodeProperties = {
	displayName: 'Fields',
	name: 'dmFields',
	type: 'collection',
	placeholder: 'Add Fields',
	default: {},
	options: [
		{
			displayName: 'Event Fields',
			name: 'eventFields',
			type: 'multiOptions',
			default: [],
			options: choices(DM_EVENT_FIELDS),
			description: 'Event fields to return (dm_event.fields) besides ID, event type and text',
		},
		{
			displayName: 'Expansions',
			name: 'expansions',
			type: 'multiOptions',
			default: [],
			options: choices(DM_EVENT_EXPANSIONS),
			description:
				'Related objects to put beside each event: the sender (sender_id), the participants (participant_ids), the media (attachments.media_keys), the shared posts (referenced_tweets)',
		},
		{
			displayName: 'Media Fields',
			name: 'mediaFields',
			type: 'multiOptions',
			default: [],
			options: choices(CONTRACT_MEDIA_FIELDS),
			description: 'Fields of attached media (needs the attachments.media_keys expansion)',
		},
		{
			displayName: 'Post Fields',
			name: 'postFields',
			type: 'multiOptions',
			default: [],
			options: choices(DM_POST_FIELDS),
			description: 'Fields of shared posts (needs the expansion of referenced tweets)',
		},
		{
			displayName: 'User Fields',
			name: 'userFields',
			type: 'multiOptions',
			default: [],
			options: choices(CONTRACT_USER_FIELDS),
			description: 'Fields of the sender and participants (needs sender_id or participant_ids)',
		},
	],
};

/** The query of the Fields collection. */
export function eventFieldsQuery(ctx: OperationContext, itemIndex: number): IDataObject {
	const chosen = (ctx.getNodeParameter('dmFields', itemIndex, {}) ?? {}) as IDataObject;
	return joinedFieldsQuery(
		(name) => chosen[name],
		[
			['eventFields', 'dm_event.fields'],
			['expansions', 'expansions'],
			['mediaFields', 'media.fields'],
			['postFields', 'tweet.fields'],
			['userFields', 'user.fields'],
		],
	);
}

/** Expanded objects collected from every page's `includes`. */
export class EventIncludes {
	private users = new Map<string, IDataObject>();
	private media = new Map<string, IDataObject>();
	private posts = new Map<string, IDataObject>();

	add(body: IDataObject) {
		const includes = (body?.includes ?? {}) as IDataObject;
		for (const u of (includes.users ?? []) as IDataObject[]) this.users.set(String(u.id), u);
		for (const m of (includes.media ?? []) as IDataObject[]) this.media.set(String(m.media_key), m);
		for (const t of (includes.tweets ?? []) as IDataObject[]) this.posts.set(String(t.id), t);
	}

	/** The event with `sender`, `participants`, `media` and `referenced_posts` beside it, where expanded. */
	merge(event: IDataObject): IDataObject {
		const out: IDataObject = { ...event };
		if (event.sender_id && this.users.has(String(event.sender_id)))
			out.sender = this.users.get(String(event.sender_id));
		const participants = ((event.participant_ids ?? []) as string[])
			.map((id) => this.users.get(String(id)))
			.filter(Boolean) as IDataObject[];
		if (participants.length) out.participants = participants;
		const keys = (((event.attachments ?? {}) as IDataObject).media_keys ?? []) as string[];
		const media = keys.map((k) => this.media.get(String(k))).filter(Boolean) as IDataObject[];
		if (media.length) out.media = media;
		const refs = (event.referenced_tweets ?? []) as IDataObject[];
		const posts = refs
			.map((r) =>
				this.posts.has(String(r.id))
					? { type: r.type, ...this.posts.get(String(r.id)) }
					: undefined,
			)
			.filter(Boolean) as IDataObject[];
		if (posts.length) out.referenced_posts = posts;
		return out;
	}
}

/** A direct message event ID: 1-19 digits. */
export function eventIdParameter(ctx: OperationContext, itemIndex: number): string {
	const id = String(ctx.getNodeParameter('eventId', itemIndex, '') ?? '').trim();
	if (!/^\d{1,19}$/.test(id))
		throw invalidInput(ctx, itemIndex, `Event ID: "${id}" is not an event ID (1-19 digits)`);
	return id;
}

export const eventIdProperty: INodeProperties = {
	displayName: 'Event ID',
	name: 'eventId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '1580705921830768643',
	description:
		'The ID of the direct message event (1-19 digits), e.g. dm_event_id of a sent message',
};

/** A conversation ID as the direct message endpoints take it: two user IDs joined by "-", or a group's ID. */
export const DM_CONVERSATION_ID = /^(\d{1,19}-\d{1,19}|\d{15,19})$/;

export const conversationIdProperty: INodeProperties = {
	displayName: 'Conversation ID',
	name: 'conversationId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '1581023741862858752',
	description:
		'The dm_conversation_id of the conversation: a group conversation ID (15-19 digits), or two user IDs joined by "-" for a one-to-one conversation',
};

export function conversationIdParameter(ctx: OperationContext, itemIndex: number): string {
	const id = String(ctx.getNodeParameter('conversationId', itemIndex, '') ?? '').trim();
	if (!DM_CONVERSATION_ID.test(id))
		throw invalidInput(
			ctx,
			itemIndex,
			`Conversation ID: "${id}" is not a conversation ID (15-19 digits, or two user IDs joined by "-")`,
		);
	return id;
}
