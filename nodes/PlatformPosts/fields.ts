import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** Fields and expansions of post reads (the service's data dictionary of post and user fields). */
export const TWEET_FIELDS = [
	'attachments',
	'author_id',
	'community_id',
	'context_annotations',
	'conversation_id',
	'created_at',
	'edit_controls',
	'edit_history_tweet_ids',
	'entities',
	'in_reply_to_user_id',
	'lang',
	'note_tweet',
	'paid_partnership',
	'possibly_sensitive',
	'public_metrics',
	'referenced_tweets',
	'reply_settings',
];
const EXPANSIONS = [
	'attachments.media_keys',
	'attachments.poll_ids',
	'author_id',
	'edit_history_tweet_ids',
	'entities.mentions.username',
	'in_reply_to_user_id',
	'referenced_tweets.id',
	'referenced_tweets.id.author_id',
];
const MEDIA_FIELDS = [
	'alt_text',
	'duration_ms',
	'height',
	'media_key',
	'preview_image_url',
	'public_metrics',
	'type',
	'url',
	'variants',
	'width',
];
export const USER_FIELDS = [
	'affiliation',
	'connection_status',
	'created_at',
	'description',
	'entities',
	'location',
	'pinned_tweet_id',
	'profile_image_url',
	'protected',
	'public_metrics',
	'subscription_type',
	'url',
	'verified',
	'verified_type',
];

/** The User Fields of the user reads (Get, Get Many). */
export const userFieldsProperty: INodeProperties = {
	displayName: 'User Fields',
	name: 'userFields',
	type: 'multiOptions',
	options: USER_FIELDS.map((value) => ({ name: value, value })),
	default: [],
	description: 'Extra user fields to return besides ID, name and username',
};

function multi(
	displayName: string,
	name: string,
	values: string[],
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		default: [],
		description,
		options: values.map((value) => ({ name: value, value })),
	};
}

/** Fields, expansions and output shape shared by Get and Search. */
export const fieldProperties: INodeProperties[] = [
	multi(
		'Post Fields',
		'tweetFields',
		TWEET_FIELDS,
		'Post fields to return besides ID and text (tweet.fields)',
	),
	multi(
		'Expansions',
		'expansions',
		EXPANSIONS,
		'Related objects to return in includes: e.g. author_id adds the author, attachments.media_keys the media',
	),
	multi(
		'Media Fields',
		'mediaFields',
		MEDIA_FIELDS,
		'Fields of expanded media (needs the attachments.media_keys expansion)',
	),
	multi(
		'User Fields',
		'userFields',
		USER_FIELDS,
		'Fields of expanded users (needs an expansion such as author_id)',
	),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'merged',
		options: [
			{
				name: 'One Item per Post, Includes Merged',
				value: 'merged',
				description:
					'Each post carries its expanded objects: author, in_reply_to_user, media, poll and referenced posts. Posts the service could not return come as items with an error field.',
			},
			{
				name: 'Raw Response',
				value: 'raw',
				description:
					'The response envelope as the service sends it (data, includes, errors, meta), one item per request',
			},
		],
	},
];

export function fieldQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const qs: IDataObject = {};
	const pairs: Array<[string, string]> = [
		['tweetFields', 'tweet.fields'],
		['expansions', 'expansions'],
		['mediaFields', 'media.fields'],
		['userFields', 'user.fields'],
	];
	for (const [param, key] of pairs) {
		const values = (ctx.getNodeParameter(param, itemIndex, []) as string[]) ?? [];
		if (values.length) qs[key] = values.join(',');
	}
	return qs;
}

export { mergeIncludes } from '../shared/includes';

/** Partial errors of a 200 lookup (e.g. a deleted post), one item each. */
export function partialErrors(body: IDataObject): IDataObject[] {
	const errors = (Array.isArray(body.errors) ? body.errors : []) as IDataObject[];
	return errors.map((e) => ({
		id: String(e.resource_id ?? e.value ?? ''),
		error: String(e.detail ?? e.title ?? 'Not returned by the service'),
		errorType: e.type,
	}));
}
