import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AuthenticationRule } from '../../../shared/authentication';
import { ANY_KIND, USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { isoTime } from '../../common';
import { mergeIncludes, USER_FIELDS } from '../../fields';
import { userLocator, userRefParameter } from '../../../shared/locators';
import { authenticatedUserId, resolveUserId } from '../../users';
import type { Kind, Timeline } from '../../../shared/timelines';
import { TIMELINES } from '../../../shared/timelines';

/**
 * The owned reads: GET /2/users/:id/<suffix>, one table row per timeline, as the service lists them. Each is
 * charged per resource returned, so the node reads up to a limit unless Return All is on.
 */

const OP = 'getTimeline';
const values = (filter: (t: Timeline) => boolean) => TIMELINES.filter(filter).map((t) => t.value);
const showWhen = (timelines: string[], extra: IDataObject = {}) => ({
	show: { timeline: timelines, ...extra },
});

const POST_TIMELINES = values((t) => t.kind === 'posts');
const USER_TIMELINES = values((t) => t.kind === 'users');
const LIST_TIMELINES = values((t) => t.kind === 'lists');
const ANY_USER = values((t) => !t.ownOnly);
const PAGED = values((t) => !!t.page);
const BOUNDED = values((t) => !!t.bounds);

const TWEET_FIELDS = [
	'attachments',
	'author_id',
	'context_annotations',
	'conversation_id',
	'created_at',
	'entities',
	'in_reply_to_user_id',
	'lang',
	'note_tweet',
	'possibly_sensitive',
	'public_metrics',
	'referenced_tweets',
];
const POST_EXPANSIONS = [
	'attachments.media_keys',
	'author_id',
	'in_reply_to_user_id',
	'referenced_tweets.id',
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
	'width',
];
const LIST_FIELDS = [
	'created_at',
	'description',
	'follower_count',
	'member_count',
	'owner_id',
	'private',
];

function multi(
	displayName: string,
	name: string,
	list: string[],
	when: INodeProperties['displayOptions'],
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		default: [],
		displayOptions: when,
		description,
		options: list.map((value) => ({ name: value, value })),
	};
}

function onlyFor(timelines: string[]) {
	return { show: { '/timeline': timelines } } as INodeProperties['displayOptions'];
}

export const boundOptions: INodeProperties[] = [
	{
		displayName: 'Start Time',
		name: 'startTime',
		type: 'dateTime',
		default: '',
		displayOptions: onlyFor(BOUNDED),
		description: 'Only posts created at or after this time (Posts and Mentions)',
	},
	{
		displayName: 'End Time',
		name: 'endTime',
		type: 'dateTime',
		default: '',
		displayOptions: onlyFor(BOUNDED),
		description: 'Only posts created before this time (Posts and Mentions)',
	},
	{
		displayName: 'Since Post ID',
		name: 'sinceId',
		type: 'string',
		default: '',
		displayOptions: onlyFor(BOUNDED),
		description: 'Only posts newer than this post ID (Posts and Mentions)',
	},
	{
		displayName: 'Until Post ID',
		name: 'untilId',
		type: 'string',
		default: '',
		displayOptions: onlyFor(BOUNDED),
		description: 'Only posts older than this post ID (Posts and Mentions)',
	},
	{
		displayName: 'Exclude',
		name: 'exclude',
		type: 'multiOptions',
		default: [],
		displayOptions: onlyFor(values((t) => !!t.exclude)),
		options: [
			{ name: 'Replies', value: 'replies' },
			{ name: 'Reposts', value: 'retweets' },
		],
		description: 'Leave out replies and/or reposts (Posts only)',
	},
];

/** Query parameters of the options that the chosen timeline takes. */
export function boundQuery(
	ctx: OperationContext,
	itemIndex: number,
	timeline: Timeline,
): IDataObject {
	if (!timeline.bounds) return {};
	const options = ctx.options;
	const qs: IDataObject = {};
	const start = isoTime(ctx, options.startTime, 'Start Time', itemIndex);
	const end = isoTime(ctx, options.endTime, 'End Time', itemIndex);
	if (start) qs.start_time = start;
	if (end) qs.end_time = end;
	for (const [option, key, label] of [
		['sinceId', 'since_id', 'Since Post ID'],
		['untilId', 'until_id', 'Until Post ID'],
	] as const) {
		const value = String(options[option] ?? '').trim();
		if (!value) continue;
		if (!/^\d{1,19}$/.test(value)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: ${label}: not a post ID (1-19 digits)`,
				{ itemIndex },
			);
		}
		qs[key] = value;
	}
	const exclude = (options.exclude ?? []) as string[];
	if (timeline.exclude && exclude.length) qs.exclude = exclude.join(',');
	return qs;
}

function fieldQuery(ctx: IExecuteFunctions, itemIndex: number, timeline: Timeline): IDataObject {
	const qs: IDataObject = {};
	const join = (param: string) =>
		((ctx.getNodeParameter(param, itemIndex, []) as string[]) ?? []).join(',');
	const set = (key: string, value: string) => {
		if (value) qs[key] = value;
	};
	set('user.fields', join('userFields'));
	if (timeline.kind !== 'lists') set('tweet.fields', join('tweetFields'));
	if (timeline.kind === 'posts') {
		set('expansions', join('expansions'));
		set('media.fields', join('mediaFields'));
	}
	if (timeline.kind === 'users' && ctx.getNodeParameter('includePinnedPost', itemIndex, false))
		qs.expansions = 'pinned_tweet_id';
	if (timeline.kind === 'lists') {
		set('list.fields', join('listFields'));
		if (ctx.getNodeParameter('includeOwner', itemIndex, false)) qs.expansions = 'owner_id';
	}
	return qs;
}

/** Puts expanded objects beside each entry: posts as in Search, a user's pinned post, a list's owner. */
function merge(kind: Kind, data: IDataObject[], includes: IDataObject): IDataObject[] {
	if (kind === 'posts') return mergeIncludes({ data, includes });
	const index = (list: unknown) =>
		new Map(((Array.isArray(list) ? list : []) as IDataObject[]).map((o) => [String(o.id), o]));
	if (kind === 'users') {
		const tweets = index(includes.tweets);
		return data.map((u) =>
			u.pinned_tweet_id && tweets.has(String(u.pinned_tweet_id))
				? { ...u, pinned_post: tweets.get(String(u.pinned_tweet_id)) }
				: u,
		);
	}
	const users = index(includes.users);
	return data.map((l) =>
		l.owner_id && users.has(String(l.owner_id))
			? { ...l, owner: users.get(String(l.owner_id)) }
			: l,
	);
}

/**
 * Each timeline's endpoint accepts its own credential kinds; reading the authenticated user's
 * timeline also asks the service who that is (GET /2/users/me, a user's token only).
 */
const timelineRules: AuthenticationRule[] = [
	...TIMELINES.filter((t) => t.authentication.length < ANY_KIND.length).map((t) => ({
		when: { timeline: [t.value] },
		kinds: t.authentication,
		what: `Reading ${t.name}`,
	})),
	{
		when: {
			forMe: [true],
			timeline: values((t) => !t.ownOnly && t.authentication.length === ANY_KIND.length),
		},
		kinds: USER_CONTEXT,
		what: "Reading the authenticated user's timeline",
	},
];

export const getTimeline: ItemOperation = {
	option: {
		name: 'Get Timeline',
		value: OP,
		description:
			"Read a user's posts, mentions, liked posts, followers, following or lists, or the authenticated user's bookmarks, blocked, muted users and pinned lists. Charged per result: keep a limit.",
		action: "Get one user's timeline",
	},
	properties: [
		{
			displayName: 'Timeline',
			name: 'timeline',
			type: 'options',
			default: 'posts',
			options: TIMELINES.map((t) => ({ name: t.name, value: t.value, description: t.description })),
			description: 'What to read. The service charges per result returned.',
		},
		{
			displayName: 'For Authenticated User',
			name: 'forMe',
			type: 'boolean',
			default: true,
			displayOptions: showWhen(ANY_USER),
			description:
				'Whether to read the timeline of the authenticated user (needs a user-context credential) or of another user',
		},
		{
			...userLocator('user', showWhen(ANY_USER, { forMe: [false] })),
			description: 'The user whose timeline to read, by username, ID or profile URL',
		},
		returnAllProperty({ timeline: PAGED }),
		{
			...limitProperty(100000, { timeline: PAGED }),
			description:
				'Max number of results to return. Each result is charged: keep this low unless you need everything.',
		},
		multi(
			'Post Fields',
			'tweetFields',
			TWEET_FIELDS,
			showWhen([...POST_TIMELINES, ...USER_TIMELINES]),
			'Post fields to return (tweet.fields): of the posts, or of a pinned post',
		),
		multi(
			'Expansions',
			'expansions',
			POST_EXPANSIONS,
			showWhen(POST_TIMELINES),
			'Related objects to put beside each post: author, media, replied-to user, referenced posts',
		),
		multi(
			'Media Fields',
			'mediaFields',
			MEDIA_FIELDS,
			showWhen(POST_TIMELINES),
			'Fields of expanded media (needs the attachments.media_keys expansion)',
		),
		multi(
			'User Fields',
			'userFields',
			USER_FIELDS,
			undefined,
			'User fields to return (user.fields): of the users, or of expanded authors and owners',
		),
		multi(
			'List Fields',
			'listFields',
			LIST_FIELDS,
			showWhen(LIST_TIMELINES),
			'List fields to return besides ID and name (list.fields)',
		),
		{
			displayName: 'Include Pinned Post',
			name: 'includePinnedPost',
			type: 'boolean',
			default: false,
			displayOptions: showWhen(USER_TIMELINES),
			description: "Whether to add each user's pinned post (as pinned_post)",
		},
		{
			displayName: 'Include Owner',
			name: 'includeOwner',
			type: 'boolean',
			default: false,
			displayOptions: showWhen(LIST_TIMELINES),
			description: "Whether to add each list's owner (as owner)",
		},
	],
	options: boundOptions,
	authentication: ANY_KIND,
	authenticationRules: timelineRules,
	async execute(ctx: OperationContext, itemIndex: number) {
		const value = ctx.getNodeParameter('timeline', itemIndex, 'posts') as string;
		const timeline = TIMELINES.find((t) => t.value === value);
		if (!timeline)
			throw new NodeOperationError(ctx.getNode(), `Unknown timeline "${value}"`, { itemIndex });
		const forMe = timeline.ownOnly || (ctx.getNodeParameter('forMe', itemIndex, true) as boolean);
		const userId = forMe
			? await authenticatedUserId.call(ctx, itemIndex)
			: await resolveUserId.call(ctx, itemIndex, userRefParameter(ctx, 'user', itemIndex));
		const request = {
			method: 'GET' as const,
			path: `/2/users/${userId}/${timeline.suffix}`,
			qs: { ...fieldQuery(ctx, itemIndex, timeline), ...boundQuery(ctx, itemIndex, timeline) },
		};
		if (!timeline.page) {
			const body = await ctx.request(request);
			const data = (
				Array.isArray(body?.data) ? body.data : body?.data ? [body.data] : []
			) as IDataObject[];
			return merge(timeline.kind, data, (body?.includes ?? {}) as IDataObject);
		}
		const includes: IDataObject = { users: [], media: [], tweets: [], polls: [] };
		const data = await ctx.paginate(request, {
			returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
			limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
			pageSizeParam: 'max_results',
			maxPageSize: timeline.page.max,
			minPageSize: timeline.page.min,
			tokenParam: 'pagination_token',
			onPage: (body) => {
				const inc = (body.includes ?? {}) as IDataObject;
				for (const key of Object.keys(includes))
					(includes[key] as IDataObject[]).push(...((inc[key] ?? []) as IDataObject[]));
			},
		});
		return merge(timeline.kind, data, includes);
	},
};
