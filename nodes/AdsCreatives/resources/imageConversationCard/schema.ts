import type { INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { mediaKey, mediaKindOf, objectName } from '../../shared/fields';
import { conversationCardSchemas, cta, short, text } from '../videoConversationCard/schema';

/**
 * Fields and rules of an image conversation card, shared by Create and Update. The service documents
 * only the delete of this legacy card type; its other fields are those of the video conversation card
 * with an image in place of the video (no poster, no unlocked video), under the same limits.
 */

const image = mediaKey.refine(
	(k) => mediaKindOf(k) === 'image',
	'an image of the media library (a media key such as 3_1234567890)',
);

const fields = {
	name: objectName.min(1, 'is required'),
	media_key: image,
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
	unlocked_image_media_key: image,
};

export const REQUIRED_ON_CREATE = [
	'name',
	'media_key',
	'first_cta',
	'first_cta_tweet',
	'thank_you_text',
];
export const ALL_FIELDS = Object.keys(fields);

export const { createSchema, updateSchema } = conversationCardSchemas(fields, REQUIRED_ON_CREATE);

export const LABELS: Record<string, string> = {
	name: 'Name',
	media_key: 'Image Media Key',
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
	unlocked_image_media_key: 'Unlocked Image Media Key',
	'': 'Update Fields',
};

const DESCRIPTIONS: Record<string, string> = {
	name: 'At most 80 characters',
	media_key: 'An image of the media library, given by its media key',
	title: 'At most 23 characters; required when there is no second CTA',
	first_cta: 'A hashtag, at most 20 characters not counting the #',
	first_cta_tweet: 'The post text published when someone picks the first CTA',
	second_cta: 'A hashtag, at most 20 characters; required when there is no title',
	third_cta: 'A hashtag, at most 20 characters',
	fourth_cta: 'A hashtag, at most 20 characters',
	thank_you_text: 'At most 23 characters',
	unlocked_image_media_key: 'Image of the media library shown after a choice',
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
