import type { IDataObject } from 'n8n-workflow';

/**
 * The `*.fields` values the service's contract names for users and media, where an operation offers
 * every one of them (the reads added with the whole contract). Older operations offer the shorter
 * lists they always had (nodes/PlatformPosts/fields.ts): a saved workflow keeps its choices.
 */
export const CONTRACT_USER_FIELDS = [
	'affiliation',
	'confirmed_email',
	'connection_status',
	'created_at',
	'description',
	'entities',
	'id',
	'is_identity_verified',
	'location',
	'most_recent_tweet_id',
	'name',
	'parody',
	'pinned_tweet_id',
	'profile_banner_url',
	'profile_image_url',
	'protected',
	'public_metrics',
	'receives_your_dm',
	'subscription',
	'subscription_type',
	'url',
	'username',
	'verified',
	'verified_followers_count',
	'verified_type',
	'withheld',
];

export const CONTRACT_MEDIA_FIELDS = [
	'alt_text',
	'duration_ms',
	'height',
	'media_key',
	'non_public_metrics',
	'organic_metrics',
	'preview_image_url',
	'promoted_metrics',
	'public_metrics',
	'type',
	'url',
	'variants',
	'width',
];

/**
 * The query of multi-option fields: each [field name, query key] pair whose chosen values (read with
 * `read`) are not empty, joined by commas as the service takes them.
 */
export function joinedFieldsQuery(
	read: (name: string) => unknown,
	pairs: Array<[string, string]>,
): IDataObject {
	const qs: IDataObject = {};
	for (const [name, key] of pairs) {
		const values = read(name);
		if (Array.isArray(values) && values.length) qs[key] = values.join(',');
	}
	return qs;
}
