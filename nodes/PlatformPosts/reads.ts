import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../shared/descriptions';
import type { OperationContext, OperationRequest } from '../shared/router';
import { mergeIncludes, TWEET_FIELDS, userFieldsProperty } from './fields';

/**
 * The paged reads of posts and users around a post or a user (liking users, reposts, quote posts,
 * affiliates, user search, reposts of me, the home timeline): Return All / Limit over the service's
 * pages, and the expanded objects of every page put beside each entry.
 */

/** What a user read can expand: the affiliated user, the most recent and the pinned post. */
export const USER_EXPANSIONS = ['affiliation.user_id', 'most_recent_tweet_id', 'pinned_tweet_id'];

/** Return All, and a Limit of up to `max` results. */
export function pagingProperties(max: number): INodeProperties[] {
	return [
		returnAllProperty(),
		{
			...limitProperty(max),
			description:
				'Max number of results to return. The service charges per result: keep this low unless you need everything.',
		},
	];
}

/** User Fields, Expansions and the Post Fields of expanded posts, for reads that return users. */
export const userListProperties: INodeProperties[] = [
	userFieldsProperty,
	{
		displayName: 'Expansions',
		name: 'expansions',
		type: 'multiOptions',
		default: [],
		options: USER_EXPANSIONS.map((value) => ({ name: value, value })),
		description:
			"Related objects to put beside each user: the user's pinned post (pinned_post), most recent post (most_recent_post) and affiliated users (affiliation_users)",
	},
	{
		displayName: 'Post Fields',
		name: 'tweetFields',
		type: 'multiOptions',
		default: [],
		options: TWEET_FIELDS.map((value) => ({ name: value, value })),
		description: 'Fields of the expanded posts (tweet.fields)',
	},
];

/** The query of userListProperties. */
export function userListQuery(ctx: OperationContext, itemIndex: number): IDataObject {
	const qs: IDataObject = {};
	for (const [param, key] of [
		['userFields', 'user.fields'],
		['expansions', 'expansions'],
		['tweetFields', 'tweet.fields'],
	] as const) {
		const values = (ctx.getNodeParameter(param, itemIndex, []) as string[]) ?? [];
		if (values.length) qs[key] = values.join(',');
	}
	return qs;
}

function byId(list: unknown): Map<string, IDataObject> {
	return new Map(
		((Array.isArray(list) ? list : []) as IDataObject[]).map((o) => [String(o.id), o]),
	);
}

/** Puts each user's expanded posts and affiliated users (from `includes`) beside it. */
export function mergeUserIncludes(users: IDataObject[], includes: IDataObject): IDataObject[] {
	const tweets = byId(includes.tweets);
	const others = byId(includes.users);
	return users.map((user) => {
		const merged: IDataObject = { ...user };
		if (user.pinned_tweet_id && tweets.has(String(user.pinned_tweet_id)))
			merged.pinned_post = tweets.get(String(user.pinned_tweet_id));
		if (user.most_recent_tweet_id && tweets.has(String(user.most_recent_tweet_id)))
			merged.most_recent_post = tweets.get(String(user.most_recent_tweet_id));
		const affiliated = (user.affiliation as IDataObject | undefined)?.user_id;
		if (Array.isArray(affiliated)) {
			const found = affiliated.map((id) => others.get(String(id))).filter(Boolean);
			if (found.length) merged.affiliation_users = found as IDataObject[];
		}
		return merged;
	});
}

export interface PageBounds {
	/** max_results bounds of the endpoint. */
	min: number;
	max: number;
	/** The query parameter that carries `meta.next_token` back (default pagination_token). */
	tokenParam?: string;
}

/**
 * Reads pages up to Limit (or all of them) and returns one item per user or post, expanded objects
 * beside it; posts can also come as the pages the service sent (Output: Raw Response), each with its
 * includes and meta.
 */
export async function readPages(
	ctx: OperationContext,
	itemIndex: number,
	request: OperationRequest,
	bounds: PageBounds,
	kind: 'posts' | 'users',
): Promise<IDataObject[]> {
	const pages: IDataObject[] = [];
	const data = await ctx.paginate(request, {
		returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
		limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
		pageSizeParam: 'max_results',
		maxPageSize: bounds.max,
		minPageSize: bounds.min,
		tokenParam: bounds.tokenParam ?? 'pagination_token',
		onPage: (body) => pages.push(body),
	});
	const includes: IDataObject = { users: [], media: [], tweets: [], polls: [] };
	for (const page of pages) {
		const inc = (page.includes ?? {}) as IDataObject;
		for (const key of Object.keys(includes))
			(includes[key] as IDataObject[]).push(...((inc[key] ?? []) as IDataObject[]));
	}
	if (kind === 'users') return mergeUserIncludes(data, includes);
	if (ctx.getNodeParameter('output', itemIndex, 'merged') === 'raw') {
		// The last page keeps only the posts within Limit.
		return pages.map((page, index) => ({
			...page,
			data:
				index === pages.length - 1
					? (page.data as IDataObject[] | undefined)?.filter((p) => data.includes(p))
					: page.data,
		}));
	}
	return mergeIncludes({ data, includes });
}
