import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { splitList } from '../../../../shared/lists';
import { z } from 'zod';

import { locatorValue, postIdFrom } from '../../../../shared/locators';
import { mediaKind, mediaTypeOf, MAX_ALT_TEXT } from '../../../../shared/media';
import { validateInput } from '../../../../shared/validation';

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
		cardUri: z
			.string()
			.regex(/^card:\/\/\d+$/, 'a card URI looks like card://123')
			.optional(),
		communityId: z
			.string()
			.regex(/^\d{1,19}$/, 'a community ID is 1-19 digits')
			.optional(),
		taggedUserIds: z.array(z.string().regex(/^\d{1,19}$/, 'a user ID is 1-19 digits')).optional(),
		excludeReplyUserIds: z
			.array(z.string().regex(/^\d{1,19}$/, 'a user ID is 1-19 digits'))
			.optional(),
		shareWithFollowers: z.boolean().optional(),
		altTexts: z
			.array(
				z.object({
					property: z.string(),
					text: z.string().max(MAX_ALT_TEXT, `at most ${MAX_ALT_TEXT} characters`),
				}),
			)
			.optional(),
		binaryProperties: z.array(z.string()),
	})
	.superRefine((v, ctx) => {
		v.altTexts?.forEach((alt, i) => {
			const at = v.binaryProperties.indexOf(alt.property);
			if (at === -1) {
				ctx.addIssue({
					code: 'custom',
					path: ['altTexts', i],
					message: `"${alt.property}" is not one of the Binary Properties`,
				});
			} else if (v.binaryKinds[at] === 'video') {
				ctx.addIssue({
					code: 'custom',
					path: ['altTexts', i],
					message: `"${alt.property}" is a video: alt text is for images and GIFs`,
				});
			}
		});
		if (v.pollOptions && (v.pollOptions.length < 2 || v.pollOptions.length > 4)) {
			ctx.addIssue({ code: 'custom', path: ['pollOptions'], message: 'a poll has 2 to 4 options' });
		}
		const mediaCount = (v.mediaIds?.length ?? 0) + v.binaryKinds.length;
		if (mediaCount > 4) {
			ctx.addIssue({
				code: 'custom',
				path: ['media'],
				message: `at most 4 media per post (got ${mediaCount})`,
			});
		} else if (mediaCount > 1 && v.binaryKinds.some((k) => k !== 'image')) {
			ctx.addIssue({
				code: 'custom',
				path: ['media'],
				message: 'a post takes 1 to 4 images, or 1 GIF, or 1 video',
			});
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
			ctx.addIssue({
				code: 'custom',
				path: ['text'],
				message: 'text is required unless media is attached',
			});
		}
		if (v.taggedUserIds?.length && !mediaCount) {
			ctx.addIssue({
				code: 'custom',
				path: ['taggedUserIds'],
				message: 'users are tagged in attached media: add Binary Properties or Media IDs',
			});
		}
		if (v.excludeReplyUserIds?.length && !v.replyTo) {
			ctx.addIssue({
				code: 'custom',
				path: ['excludeReplyUserIds'],
				message: 'is used with Reply To Post',
			});
		}
		if (v.shareWithFollowers && !v.communityId) {
			ctx.addIssue({
				code: 'custom',
				path: ['shareWithFollowers'],
				message: 'needs a Community ID',
			});
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

function hasLocatorValue(raw: unknown): boolean {
	const value = raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : raw;
	return value !== undefined && value !== null && String(value).trim() !== '';
}

/** What a create or edit carries once its fields are read and valid. */
export interface ComposeInput {
	text: string;
	fields: IDataObject;
	binaries: Array<{ property: string; binary: IBinaryData }>;
	input: z.infer<typeof composeSchema>;
}

/** Reads text and Additional Fields of one item and validates them; sends nothing. */
export function readComposeInput(this: IExecuteFunctions, itemIndex: number): ComposeInput {
	const node = this.getNode();
	const text = String(this.getNodeParameter('text', itemIndex, '') ?? '');
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const postId = (name: string) =>
		hasLocatorValue(fields[name])
			? locatorValue(node, fields[name], COMPOSE_LABELS[name], itemIndex, postIdFrom)
			: undefined;

	const binaryProperties = splitList(fields.binaryProperties);
	const binaries: Array<{ property: string; binary: IBinaryData }> = binaryProperties.map(
		(property) => ({
			property,
			binary: this.helpers.assertBinaryData(itemIndex, property),
		}),
	);
	const altTexts = (
		((fields.altTexts as IDataObject | undefined)?.altText as IDataObject[] | undefined) ?? []
	)
		.map((a) => ({ property: String(a.property ?? '').trim(), text: String(a.text ?? '') }))
		.filter((a) => a.text.trim());
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
			// An unsupported type is refused by name when the files are checked before the upload.
			binaryKinds: binaries.map((b) => mediaKind(mediaTypeOf(b.binary)) ?? 'image'),
			cardUri: String(fields.cardUri ?? '').trim() ? String(fields.cardUri).trim() : undefined,
			communityId: String(fields.communityId ?? '').trim()
				? String(fields.communityId).trim()
				: undefined,
			taggedUserIds: String(fields.taggedUserIds ?? '').trim()
				? splitList(fields.taggedUserIds)
				: undefined,
			excludeReplyUserIds: String(fields.excludeReplyUserIds ?? '').trim()
				? splitList(fields.excludeReplyUserIds)
				: undefined,
			shareWithFollowers: fields.shareWithFollowers === true ? true : undefined,
			altTexts: altTexts.length ? altTexts : undefined,
			binaryProperties,
		},
		itemIndex,
		COMPOSE_LABELS,
	);
	return { text, fields, binaries, input };
}
