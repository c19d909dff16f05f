import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { ANY_KIND, USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import { listIdFrom, listLocator, locatorValue } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { fieldProperties, USER_FIELDS } from '../../fields';
import { authenticatedUserId } from '../../users';

/**
 * Lists: a list is picked from the authenticated user's own lists, by ID or by its URL
 * (https://<host>/i/lists/<id>). The list reads page with max_results 1-100 and pagination_token.
 */

/** Reads the List field (an ID or a list URL), refused naming the field and the item. */
export function listIdParameter(ctx: OperationContext, itemIndex: number): string {
	return locatorValue(
		ctx.getNode(),
		ctx.getNodeParameter('listId', itemIndex, ''),
		'List',
		itemIndex,
		listIdFrom,
	);
}

/** List fields besides ID and name, which always come back (list.fields). */
export const LIST_FIELDS = [
	'created_at',
	'description',
	'follower_count',
	'member_count',
	'owner_id',
	'private',
];

export function multi(
	displayName: string,
	name: string,
	values: string[],
	description: string,
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		default: [],
		displayOptions,
		description,
		options: values.map((value) => ({ name: value, value })),
	};
}

/** Fields of the post reads (Post Fields, Expansions, Media Fields, User Fields), without Output. */
export function postFieldProperty(name: string): INodeProperties {
	const found = fieldProperties.find((p) => p.name === name);
	if (!found) throw new Error(`no post field property ${name}`);
	return found;
}

/** The comma-joined values of a multi-option field, or nothing when none is chosen. */
export function joined(ctx: OperationContext, name: string, itemIndex: number): string {
	return ((ctx.getNodeParameter(name, itemIndex, []) as string[]) ?? []).join(',');
}

const USER_EXPANSIONS = ['affiliation.user_id', 'most_recent_tweet_id', 'pinned_tweet_id'];

/** Puts each user's expanded posts and affiliated users beside it. */
function mergeUsers(data: IDataObject[], includes: IDataObject): IDataObject[] {
	const index = (list: unknown) =>
		new Map(((Array.isArray(list) ? list : []) as IDataObject[]).map((o) => [String(o.id), o]));
	const tweets = index(includes.tweets);
	const users = index(includes.users);
	return data.map((u) => {
		const merged: IDataObject = { ...u };
		if (u.pinned_tweet_id && tweets.has(String(u.pinned_tweet_id)))
			merged.pinned_post = tweets.get(String(u.pinned_tweet_id));
		if (u.most_recent_tweet_id && tweets.has(String(u.most_recent_tweet_id)))
			merged.most_recent_post = tweets.get(String(u.most_recent_tweet_id));
		const affiliated = ((u.affiliation as IDataObject | undefined)?.user_id ?? []) as string[];
		if (Array.isArray(affiliated) && affiliated.some((id) => users.has(String(id))))
			merged.affiliation_users = affiliated
				.map((id) => users.get(String(id)))
				.filter(Boolean) as IDataObject[];
		return merged;
	});
}

/** Reads every page's includes into one object (users, tweets, media, polls). */
export function collectIncludes(): { includes: IDataObject; onPage: (body: IDataObject) => void } {
	const includes: IDataObject = { users: [], tweets: [], media: [], polls: [] };
	return {
		includes,
		onPage: (body) => {
			const inc = (body.includes ?? {}) as IDataObject;
			for (const key of Object.keys(includes))
				(includes[key] as IDataObject[]).push(...((inc[key] ?? []) as IDataObject[]));
		},
	};
}

/** The list's members or followers: users, paged, with their pinned or latest post when asked. */
export function listUsersOperation(spec: {
	value: string;
	name: string;
	action: string;
	description: string;
	suffix: 'members' | 'followers';
}): ItemOperation {
	return {
		option: {
			name: spec.name,
			value: spec.value,
			action: spec.action,
			description: spec.description,
		},
		properties: [
			listLocator(),
			returnAllProperty(),
			{
				...limitProperty(100000),
				description:
					'Max number of users to return. Results are read 100 at a time; keep a limit on large lists.',
			},
			{
				...multi(
					'User Fields',
					'userFields',
					USER_FIELDS,
					'Extra user fields to return besides ID, name and username (user.fields)',
				),
			},
			multi(
				'Expansions',
				'expansions',
				USER_EXPANSIONS,
				'Related objects to put beside each user: the pinned post (pinned_post), the latest post (most_recent_post), the affiliated accounts (affiliation_users; needs the affiliation user field)',
			),
			{
				...postFieldProperty('tweetFields'),
				description: 'Fields of the expanded posts (tweet.fields)',
			},
		],
		// Public reads: the app-only bearer and a user's token alike.
		authentication: ANY_KIND,
		async execute(ctx: OperationContext, itemIndex: number) {
			const id = listIdParameter(ctx, itemIndex);
			const qs: IDataObject = {};
			for (const [param, key] of [
				['userFields', 'user.fields'],
				['expansions', 'expansions'],
				['tweetFields', 'tweet.fields'],
			] as const) {
				const value = joined(ctx, param, itemIndex);
				if (value) qs[key] = value;
			}
			const { includes, onPage } = collectIncludes();
			const data = await ctx.paginate(
				{ method: 'GET', path: `/2/lists/${id}/${spec.suffix}`, qs },
				{
					returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
					limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
					pageSizeParam: 'max_results',
					maxPageSize: 100,
					tokenParam: 'pagination_token',
					onPage,
				},
			);
			return mergeUsers(data, includes).map((u) => ({ ...u, list_id: id }));
		},
	};
}

/**
 * Follow, unfollow, pin and unpin act as the authenticated user: /2/users/:id/<suffix> where :id must
 * be that user (looked up once per execution).
 */
export function myListOperation(spec: {
	value: string;
	name: string;
	action: string;
	description: string;
	method: 'POST' | 'DELETE';
	suffix: 'followed_lists' | 'pinned_lists';
}): ItemOperation {
	return {
		option: {
			name: spec.name,
			value: spec.value,
			action: spec.action,
			description: spec.description,
		},
		properties: [listLocator()],
		// Acts as the authenticated user (also GET /2/users/me, which takes no app token).
		authentication: USER_CONTEXT,
		async execute(ctx: OperationContext, itemIndex: number) {
			const id = listIdParameter(ctx, itemIndex);
			const me = await authenticatedUserId.call(ctx, itemIndex);
			const body = await ctx.request({
				method: spec.method,
				path:
					spec.method === 'POST'
						? `/2/users/${me}/${spec.suffix}`
						: `/2/users/${me}/${spec.suffix}/${id}`,
				body: spec.method === 'POST' ? { list_id: id } : undefined,
			});
			const data = unwrapData<IDataObject>(body) ?? {};
			return { ...(typeof data === 'object' ? data : { result: data }), list_id: id, user_id: me };
		},
	};
}
