import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../../shared/router';

const TWEET_FIELDS = ['attachments', 'author_id', 'community_id', 'context_annotations', 'conversation_id', 'created_at', 'entities', 'in_reply_to_user_id', 'lang', 'paid_partnership', 'possibly_sensitive', 'public_metrics', 'referenced_tweets'];
const EXPANSIONS = ['attachments.media_keys', 'author_id', 'in_reply_to_user_id', 'referenced_tweets.id'];
const MEDIA_FIELDS = ['alt_text', 'duration_ms', 'height', 'preview_image_url', 'public_metrics', 'type', 'url', 'variants', 'width'];
const USER_FIELDS = ['created_at', 'description', 'location', 'profile_image_url', 'public_metrics', 'username', 'verified', 'verified_type'];

function multi(displayName: string, name: string, values: string[], show: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		default: [],
		displayOptions: show,
		options: values.map((value) => ({ name: value, value })),
	};
}

/** Fields, expansions and output shape shared by Get and Search. */
export function fieldProperties(operation: string): INodeProperties[] {
	const show = showFor('post', operation);
	return [
		multi('Post Fields', 'tweetFields', TWEET_FIELDS, show),
		multi('Expansions', 'expansions', EXPANSIONS, show),
		multi('Media Fields', 'mediaFields', MEDIA_FIELDS, show),
		multi('User Fields', 'userFields', USER_FIELDS, show),
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'merged',
			displayOptions: show,
			options: [
				{ name: 'One Item per Post, Includes Merged', value: 'merged', description: 'Each post carries its author and media from includes' },
				{ name: 'Raw Response', value: 'raw', description: 'The envelope as the service sends it' },
			],
		},
	];
}

export function fieldQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const qs: IDataObject = {};
	for (const [param, key] of [['tweetFields', 'tweet.fields'], ['expansions', 'expansions'], ['mediaFields', 'media.fields'], ['userFields', 'user.fields']]) {
		const values = ctx.getNodeParameter(param, itemIndex, []) as string[];
		if (values.length) qs[key] = values.join(',');
	}
	return qs;
}

/** Puts each post's author and media (from `includes`) beside it. */
export function mergeIncludes(body: IDataObject): IDataObject[] {
	const posts = (Array.isArray(body.data) ? body.data : body.data ? [body.data] : []) as IDataObject[];
	const includes = (body.includes ?? {}) as IDataObject;
	const users = new Map(((includes.users ?? []) as IDataObject[]).map((u) => [String(u.id), u]));
	const media = new Map(((includes.media ?? []) as IDataObject[]).map((m) => [String(m.media_key), m]));
	return posts.map((post) => {
		const merged: IDataObject = { ...post };
		if (post.author_id && users.has(String(post.author_id))) merged.author = users.get(String(post.author_id));
		const keys = ((post.attachments as IDataObject | undefined)?.media_keys ?? []) as string[];
		if (keys.length) merged.media = keys.map((k) => media.get(k)).filter(Boolean) as IDataObject[];
		return merged;
	});
}
