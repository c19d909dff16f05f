import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import { locatorValue, postIdFrom, postLocator } from '../../../shared/locators';
import { checkMedia, mediaKind, mediaTypeOf, uploadMedia } from '../../../shared/media';
import { asNodeError } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { postsRequest, splitList } from '../../common';
import { MAX_ALT_TEXT, setAltText } from '../media/setAltText';

/**
 * The post body shared by Create and Edit: text, media (binary input or existing ids), poll,
 * quote, card, reply and community fields, checked with zod before any request.
 */

const POLL_OPTION = z.string().min(1, 'must not be empty').max(25, 'at most 25 characters');

export const composeSchema = z
	.object({
		text: z.string().max(25000, 'at most 25,000 characters'),
		replyTo: z.string().optional(),
		quote: z.string().optional(),
		pollOptions: z.array(POLL_OPTION).optional(),
		pollDuration: z
			.number({ invalid_type_error: 'must be a number' })
			.int('must be a whole number of minutes')
			.min(5, 'at least 5 minutes')
			.max(10080, 'at most 10,080 minutes (7 days)')
			.optional(),
		mediaIds: z.array(z.string().regex(/^\d{1,19}$/, 'a media ID is 1-19 digits')).optional(),
		binaryKinds: z.array(z.enum(['image', 'gif', 'video', 'subtitles'])),
		cardUri: z.string().regex(/^card:\/\/\d+$/, 'a card URI looks like card://123').optional(),
		communityId: z.string().regex(/^\d{1,19}$/, 'a community ID is 1-19 digits').optional(),
		taggedUserIds: z.array(z.string().regex(/^\d{1,19}$/, 'a user ID is 1-19 digits')).optional(),
		excludeReplyUserIds: z.array(z.string().regex(/^\d{1,19}$/, 'a user ID is 1-19 digits')).optional(),
		shareWithFollowers: z.boolean().optional(),
		altTexts: z
			.array(z.object({ property: z.string(), text: z.string().max(MAX_ALT_TEXT, `at most ${MAX_ALT_TEXT} characters`) }))
			.optional(),
		binaryProperties: z.array(z.string()),
	})
	.superRefine((v, ctx) => {
		v.altTexts?.forEach((alt, i) => {
			const at = v.binaryProperties.indexOf(alt.property);
			if (at === -1) {
				ctx.addIssue({ code: 'custom', path: ['altTexts', i], message: `"${alt.property}" is not one of the Binary Properties` });
			} else if (v.binaryKinds[at] === 'video') {
				ctx.addIssue({ code: 'custom', path: ['altTexts', i], message: `"${alt.property}" is a video: alt text is for images and GIFs` });
			}
		});
		if (v.pollOptions && (v.pollOptions.length < 2 || v.pollOptions.length > 4)) {
			ctx.addIssue({ code: 'custom', path: ['pollOptions'], message: 'a poll has 2 to 4 options' });
		}
		const mediaCount = (v.mediaIds?.length ?? 0) + v.binaryKinds.length;
		if (mediaCount > 4) {
			ctx.addIssue({ code: 'custom', path: ['media'], message: `at most 4 media per post (got ${mediaCount})` });
		} else if (mediaCount > 1 && v.binaryKinds.some((k) => k !== 'image')) {
			ctx.addIssue({ code: 'custom', path: ['media'], message: 'a post takes 1 to 4 images, or 1 GIF, or 1 video' });
		}
		const attachments = [
			mediaCount > 0 ? 'media' : '',
			v.pollOptions ? 'poll' : '',
			v.quote ? 'quote' : '',
			v.cardUri ? 'card' : '',
		].filter(Boolean);
		if (attachments.length > 1) {
			ctx.addIssue({
				code: 'custom',
				path: ['attachments'],
				message: `${attachments.join(', ')} cannot be combined in one post: choose one`,
			});
		}
		if (!v.text && !mediaCount) {
			ctx.addIssue({ code: 'custom', path: ['text'], message: 'text is required unless media is attached' });
		}
		if (v.taggedUserIds?.length && !mediaCount) {
			ctx.addIssue({ code: 'custom', path: ['taggedUserIds'], message: 'users are tagged in attached media: add Binary Properties or Media IDs' });
		}
		if (v.excludeReplyUserIds?.length && !v.replyTo) {
			ctx.addIssue({ code: 'custom', path: ['excludeReplyUserIds'], message: 'is used with Reply To Post' });
		}
		if (v.shareWithFollowers && !v.communityId) {
			ctx.addIssue({ code: 'custom', path: ['shareWithFollowers'], message: 'needs a Community ID' });
		}
	});

export const COMPOSE_LABELS: Record<string, string> = {
	text: 'Text',
	replyTo: 'Reply To Post',
	quote: 'Quote Post',
	pollOptions: 'Poll Options',
	pollDuration: 'Poll Duration (Minutes)',
	mediaIds: 'Media IDs',
	binaryKinds: 'Binary Properties',
	media: 'Media',
	cardUri: 'Card',
	communityId: 'Community ID',
	shareWithFollowers: 'Share With Followers',
	taggedUserIds: 'Tagged User IDs',
	excludeReplyUserIds: 'Exclude Reply User IDs',
	attachments: 'Attachments',
	altTexts: 'Alt Text',
	'altTexts.text': 'Alt Text',
};

/** A post locator inside the Additional Fields collection (not required there). */
function optionalPostLocator(name: string, displayName: string, description: string): INodeProperties {
	const property = { ...postLocator(name, displayName, undefined, false), description };
	delete property.displayOptions;
	delete property.required;
	return property;
}

/** Attachment fields (media, poll, quote, card), shared by Create and Edit. */
export function attachmentFields(): INodeProperties[] {
	return [
		{
			displayName: 'Alt Text',
			name: 'altTexts',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Alt Text',
			description: 'Describe attached images and GIFs for people using screen readers (set before the post is published)',
			options: [
				{
					displayName: 'Alt Text',
					name: 'altText',
					values: [
						{ displayName: 'Binary Property', name: 'property', type: 'string', default: 'data', description: 'One of the names given in Binary Properties' },
						{ displayName: 'Text', name: 'text', type: 'string', default: '', description: 'What the image shows, up to 1,000 characters' },
					],
				},
			],
		},
		{
			displayName: 'Binary Properties',
			name: 'binaryProperties',
			type: 'string',
			default: '',
			placeholder: 'data, image2',
			description:
				"Comma-separated names of the input item's binary properties to upload and attach: 1 to 4 images, or 1 GIF, or 1 video. Cannot be combined with a poll, a quote or a card.",
		},
		{
			displayName: 'Card',
			name: 'cardUri',
			type: 'string',
			default: '',
			placeholder: 'card://1234567890',
			description: 'A card created with the Platform Ads Creatives node, given by its card URI (card://…). Cannot be combined with media, a poll or a quote.',
		},
		{
			displayName: 'Media IDs',
			name: 'mediaIds',
			type: 'string',
			default: '',
			placeholder: '1455952740635586573',
			description: 'Comma-separated IDs of media uploaded before (at most 4 in all, counting binary properties)',
		},
		{
			displayName: 'Poll Duration (Minutes)',
			name: 'pollDuration',
			type: 'number',
			default: 1440,
			typeOptions: { minValue: 5, maxValue: 10080 },
			description: 'How long the poll stays open: 5 to 10,080 minutes (7 days). Used with Poll Options.',
		},
		{
			displayName: 'Poll Options',
			name: 'pollOptions',
			type: 'string',
			default: '',
			placeholder: 'Yes, No',
			description: 'Comma-separated poll choices: 2 to 4, each at most 25 characters. Cannot be combined with media, a quote or a card.',
		},
		optionalPostLocator('quote', 'Quote Post', 'The post to quote. Cannot be combined with media, a poll or a card.'),
	];
}

/** Fields of Create only: reply, community, partnership, and the users tagged in the media. */
export function replyFields(): INodeProperties[] {
	return [
		{
			displayName: 'Exclude Reply User IDs',
			name: 'excludeReplyUserIds',
			type: 'string',
			default: '',
			placeholder: '2244994945, 6253282',
			description: 'Comma-separated IDs of users who are not mentioned in the reply (sent as reply.exclude_reply_user_ids). Used with Reply To Post.',
		},
		{
			displayName: 'Tagged User IDs',
			name: 'taggedUserIds',
			type: 'string',
			default: '',
			placeholder: '2244994945, 6253282',
			description: 'Comma-separated IDs of users to tag in the attached media (sent as media.tagged_user_ids). Needs media.',
		},
		{
			displayName: 'Community ID',
			name: 'communityId',
			type: 'string',
			default: '',
			placeholder: '1146654567674912769',
			description: 'Post into this community',
		},
		{
			displayName: 'Paid Partnership',
			name: 'paidPartnership',
			type: 'boolean',
			default: false,
			description: 'Whether to label the post as a paid partnership',
		},
		optionalPostLocator('replyTo', 'Reply To Post', 'The post this post replies to'),
		{
			displayName: 'Reply Settings',
			name: 'replySettings',
			type: 'options',
			default: 'following',
			description: 'Who may reply to the post',
			options: [
				{ name: 'Following', value: 'following', description: 'Accounts the author follows' },
				{ name: 'Mentioned Users', value: 'mentionedUsers' },
				{ name: 'Subscribers', value: 'subscribers' },
				{ name: 'Verified', value: 'verified' },
			],
		},
		{
			displayName: 'Share With Followers',
			name: 'shareWithFollowers',
			type: 'boolean',
			default: false,
			description: 'Whether a community post is also shown to the followers (needs Community ID)',
		},
	];
}

export function sorted(fields: INodeProperties[]): INodeProperties[] {
	return [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

function hasLocatorValue(raw: unknown): boolean {
	const value = raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : raw;
	return value !== undefined && value !== null && String(value).trim() !== '';
}

/**
 * Reads text and Additional Fields, validates them, uploads binary media and returns the body of
 * POST /2/tweets. Nothing is sent before the whole input has been validated. `attached` receives
 * what the post carries (media ids; for uploads also the media key, binary property and alt text).
 */
export async function composeBody(
	this: IExecuteFunctions,
	itemIndex: number,
	attached?: IDataObject[],
): Promise<IDataObject> {
	const node = this.getNode();
	const text = String(this.getNodeParameter('text', itemIndex, '') ?? '');
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const postId = (name: string) =>
		hasLocatorValue(fields[name])
			? locatorValue(node, fields[name], COMPOSE_LABELS[name], itemIndex, postIdFrom)
			: undefined;

	const binaryProperties = splitList(fields.binaryProperties);
	const binaries: Array<{ property: string; binary: IBinaryData }> = binaryProperties.map((property) => ({
		property,
		binary: this.helpers.assertBinaryData(itemIndex, property),
	}));
	const altTexts = ((((fields.altTexts as IDataObject | undefined)?.altText as IDataObject[] | undefined) ?? [])
		.map((a) => ({ property: String(a.property ?? '').trim(), text: String(a.text ?? '') }))
		.filter((a) => a.text.trim()));
	const pollOptions = String(fields.pollOptions ?? '').trim()
		? String(fields.pollOptions)
				.split(',')
				.map((s) => s.trim())
		: undefined;
	const input = validateInput(
		node,
		composeSchema,
		{
			text,
			replyTo: postId('replyTo'),
			quote: postId('quote'),
			pollOptions,
			pollDuration: pollOptions ? Number(fields.pollDuration ?? 1440) : undefined,
			mediaIds: String(fields.mediaIds ?? '').trim() ? splitList(fields.mediaIds) : undefined,
			// An unsupported type is refused by name when the files are checked below.
			binaryKinds: binaries.map((b) => mediaKind(mediaTypeOf(b.binary)) ?? 'image'),
			cardUri: String(fields.cardUri ?? '').trim() ? String(fields.cardUri).trim() : undefined,
			communityId: String(fields.communityId ?? '').trim() ? String(fields.communityId).trim() : undefined,
			taggedUserIds: String(fields.taggedUserIds ?? '').trim() ? splitList(fields.taggedUserIds) : undefined,
			excludeReplyUserIds: String(fields.excludeReplyUserIds ?? '').trim() ? splitList(fields.excludeReplyUserIds) : undefined,
			shareWithFollowers: fields.shareWithFollowers === true ? true : undefined,
			altTexts: altTexts.length ? altTexts : undefined,
			binaryProperties,
		},
		itemIndex,
		COMPOSE_LABELS,
	);

	// Every file is read and checked (type, size, duration) before the first upload.
	const files = [];
	for (const { property, binary } of binaries) {
		const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		checkMedia(this, itemIndex, data, binary, { purpose: 'post', field: property });
		files.push({ property, binary, data });
	}
	const mediaIds = [...(input.mediaIds ?? [])];
	for (const id of mediaIds) attached?.push({ id });
	for (const { property, binary, data } of files) {
		const uploaded = await uploadMedia.call(this, itemIndex, data, binary, { purpose: 'post', field: property });
		const alt = input.altTexts?.find((a) => a.property === property);
		if (alt) await setAltText.call(this, itemIndex, uploaded.id, alt.text);
		mediaIds.push(uploaded.id);
		attached?.push({
			id: uploaded.id,
			...(uploaded.media_key ? { media_key: uploaded.media_key } : {}),
			type: uploaded.type,
			binary_property: property,
			...(binary.fileName ? { file_name: binary.fileName } : {}),
			...(alt ? { alt_text: alt.text } : {}),
		});
	}

	const body: IDataObject = {};
	if (text) body.text = text;
	if (mediaIds.length) {
		body.media = { media_ids: mediaIds, ...(input.taggedUserIds?.length ? { tagged_user_ids: input.taggedUserIds } : {}) };
	}
	if (input.replyTo) {
		body.reply = {
			in_reply_to_tweet_id: input.replyTo,
			...(input.excludeReplyUserIds?.length ? { exclude_reply_user_ids: input.excludeReplyUserIds } : {}),
		};
	}
	if (input.quote) body.quote_tweet_id = input.quote;
	if (input.pollOptions) body.poll = { options: input.pollOptions, duration_minutes: input.pollDuration };
	if (input.cardUri) body.card_uri = input.cardUri;
	if (fields.replySettings) body.reply_settings = fields.replySettings;
	if (input.communityId) {
		body.community_id = input.communityId;
		if (input.shareWithFollowers) body.share_with_followers = true;
	}
	if (fields.paidPartnership === true) body.paid_partnership = true;
	return body;
}

/** Added to a failed create or edit that may nevertheless have gone through. */
export const MAY_HAVE_PUBLISHED =
	'The post may have been published although the request failed. Look at the account (or search for the text with Post > Search) before running the node again: a repeated create can publish twice.';

export const MAY_HAVE_EDITED =
	'The edit may have gone through although the request failed. Look at the post (Post > Get) before running the node again: a repeated edit can create another version.';

/**
 * Sends a create or edit: never retried (POST), and a failure without an answer from the service
 * (timeout, lost connection) says that the post may have gone through, instead of n8n's generic
 * advice to turn on "Retry on Fail" (which could publish twice).
 */
export async function sendPost(
	this: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	what: 'create' | 'edit',
): Promise<IDataObject> {
	const hint = what === 'create' ? MAY_HAVE_PUBLISHED : MAY_HAVE_EDITED;
	try {
		return await postsRequest.call(this, itemIndex, {
			method: 'POST',
			path: '/2/tweets',
			body,
			retryTransient: false,
			unsafeFailureHint: hint,
		});
	} catch (caught) {
		const error = asNodeError(this, caught, itemIndex);
		// No HTTP status: the request failed before an answer (n8n puts the network code there).
		if (error instanceof NodeApiError && !/^\d{3}$/.test(String(error.httpCode ?? ''))) {
			const original = error.messages?.[0] ?? error.message;
			const code = error.httpCode ? `${error.httpCode}: ` : '';
			error.message = `The request to ${what} the post got no answer from the service (${code}${original}); it was not retried`;
			error.description = hint;
		}
		throw error;
	}
}
