import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { mediaKey, objectName } from '../../shared/fields';

/** Fields and rules of a video conversation card, as the service defines them, shared by Create and Update. */

/** A CTA hashtag; the image conversation card takes the same. */
export const cta = z
	.string()
	.regex(/^#?[^\s#]+$/, 'one hashtag word, with or without the #')
	.refine((v) => v.replace(/^#/, '').length <= 20, 'at most 20 characters, not counting the #');
export const short = z.string().max(23, 'at most 23 characters');
export const text = z.string().min(1, 'is required');

const fields = {
	name: objectName.min(1, 'is required'),
	media_key: mediaKey,
	title: short,
	first_cta: cta,
	first_cta_tweet: text,
	second_cta: cta,
	second_cta_tweet: text,
	third_cta: cta,
	third_cta_tweet: text,
	fourth_cta: cta,
	fourth_cta_tweet: text,
	thank_you_text: short.min(1, 'is required'),
	thank_you_url: z.string().url('must be a URL'),
	// The service takes the poster as a long: the media ID, which is the digits after the media key's "_".
	poster_media_key: z
		.string()
		.regex(/^(\d+_)?\d{1,19}$/, 'a media key such as 3_1234567890, or the numeric media ID')
		.transform((v) => v.slice(v.indexOf('_') + 1)),
	unlocked_image_media_key: mediaKey,
	unlocked_video_media_key: mediaKey,
};

export type Card = Partial<Record<keyof typeof fields, string>>;

/** Each of the second to fourth CTAs goes with its post text, and the other way round. */
export function ctaRules(card: Card, ctx: z.RefinementCtx) {
	for (const n of ['second', 'third', 'fourth'] as const) {
		if (card[`${n}_cta`] && !card[`${n}_cta_tweet`]) {
			ctx.addIssue({
				code: 'custom',
				path: [`${n}_cta_tweet`],
				message: `is required with the ${n} CTA`,
			});
		}
		if (card[`${n}_cta_tweet`] && !card[`${n}_cta`]) {
			ctx.addIssue({
				code: 'custom',
				path: [`${n}_cta`],
				message: `is required with its post text`,
			});
		}
	}
}

/**
 * The Create and Update schemas of a conversation card from its fields: on Create the `required`
 * fields must be given and a title or a second CTA; on Update any field, at least one; each CTA after
 * the first with its post text. The image conversation card takes the same rules.
 */
export function conversationCardSchemas(fields: z.ZodRawShape, required: readonly string[]) {
	const onCreate: z.ZodRawShape = {};
	for (const [key, schema] of Object.entries(fields))
		onCreate[key] = required.includes(key) ? schema : schema.optional();
	const createSchema = z
		.object(onCreate)
		.strict()
		.superRefine((card: Card, ctx) => {
			if (!card.title && !card.second_cta) {
				ctx.addIssue({ code: 'custom', path: ['title'], message: 'give a title or a second CTA' });
			}
			ctaRules(card, ctx);
		});
	const updateSchema = z
		.object(fields)
		.partial()
		.strict()
		.superRefine((card: Card, ctx) => {
			if (!Object.keys(card).length)
				ctx.addIssue({ code: 'custom', path: [], message: 'nothing to update: add a field' });
			ctaRules(card, ctx);
		});
	return { createSchema, updateSchema };
}

export const REQUIRED_ON_CREATE = [
	'name',
	'media_key',
	'first_cta',
	'first_cta_tweet',
	'thank_you_text',
];
export const { createSchema, updateSchema } = conversationCardSchemas(fields, REQUIRED_ON_CREATE);

export const LABELS: Record<string, string> = {
	name: 'Name',
	media_key: 'Video Media Key',
	title: 'Title',
	first_cta: 'First CTA',
	first_cta_tweet: 'First CTA Post Text',
	second_cta: 'Second CTA',
	second_cta_tweet: 'Second CTA Post Text',
	third_cta: 'Third CTA',
	third_cta_tweet: 'Third CTA Post Text',
	fourth_cta: 'Fourth CTA',
	fourth_cta_tweet: 'Fourth CTA Post Text',
	thank_you_text: 'Thank-You Text',
	thank_you_url: 'Thank-You URL',
	poster_media_key: 'Poster Media Key',
	unlocked_image_media_key: 'Unlocked Image Media Key',
	unlocked_video_media_key: 'Unlocked Video Media Key',
	'': 'Update Fields',
};

const DESCRIPTIONS: Record<string, string> = {
	name: 'At most 80 characters',
	media_key: 'A 16:9 video of the media library',
	title: 'At most 23 characters; required when there is no second CTA',
	first_cta: 'A hashtag, at most 20 characters not counting the #',
	first_cta_tweet: 'The post text published when someone picks the first CTA',
	second_cta: 'A hashtag, at most 20 characters; required when there is no title',
	third_cta: 'A hashtag, at most 20 characters',
	fourth_cta: 'A hashtag, at most 20 characters',
	thank_you_text: 'At most 23 characters',
	poster_media_key:
		'Poster image: its media key (e.g. 3_1234567890) or numeric media ID; the first frame of the video when unset',
	unlocked_image_media_key: 'Image of the media library shown after a choice',
	unlocked_video_media_key: 'Video of the media library shown after a choice',
};

/** A string property for an API field, named after it, labelled as in LABELS. */
export function fieldProperty(
	field: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: LABELS[field],
		name: field,
		type: 'string',
		default: '',
		description: DESCRIPTIONS[field],
		...extra,
	} as INodeProperties;
}

export const ALL_FIELDS = Object.keys(fields);
