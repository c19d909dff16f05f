import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND, APP_OR_OAUTH2, USER_CONTEXT } from '../../shared/authentication';
import type { Timeline } from '../../shared/timelines';
import type { CredentialKind } from '../../shared/transport';
import { TIMELINES } from '../../shared/timelines';

/**
 * What each mode of the Poll Trigger reads. Every endpoint answers newest first. Where it takes
 * `since_id` (a user's posts, mentions, recent search) the service returns only newer items; the
 * others (liked posts, bookmarks, followers, direct messages) are read until a run of ids seen before;
 * Spaces by creator come in no order and are compared whole.
 */

export type PollMode =
	| 'userPosts'
	| 'mentions'
	| 'search'
	| 'followers'
	| 'likedPosts'
	| 'bookmarks'
	| 'directMessages'
	| 'listPosts'
	| 'listMembers'
	| 'listFollowers'
	| 'conversationMessages'
	| 'quotePosts'
	| 'userSpaces';

export type ItemKind = 'posts' | 'users' | 'dmEvents' | 'spaces';

export interface ModeSpec {
	value: PollMode;
	name: string;
	description: string;
	/**
	 * Whose data: a user entered in the node (User; Creator for Spaces), the authenticated user, nobody
	 * (search), or the list, post or conversation entered in the node.
	 */
	subject: 'user' | 'me' | 'none' | 'list' | 'post' | 'conversation' | 'creator';
	/** The authenticated user is looked up besides the subject (to tell sent from received messages). */
	needsMe?: boolean;
	/**
	 * The credential kinds the service accepts for every request of the mode: its endpoint's, and a
	 * user's token where the authenticated user is looked up (GET /2/users/me).
	 */
	authentication: readonly CredentialKind[];
	kind: ItemKind;
	page: { min: number; max: number };
	/** The query parameter that carries `meta.next_token` back. */
	tokenParam: 'pagination_token' | 'next_token';
	/** The endpoint takes since_id. */
	sinceId: boolean;
	/** The endpoint answers everything at once: no max_results, no pages (Spaces by creator). */
	unpaged?: boolean;
	path(subjectId: string): string;
	/** Query parameters that name the subject, where the path does not. */
	subjectQuery?(subjectId: string): IDataObject;
	/**
	 * Requests the endpoint takes per 15-minute window, as the node assumes it where an answer carries
	 * no rate-limit headers (the headers, which name the caller's plan, win): the stricter of the
	 * per-user and per-app limits the service published for it. The editor's advice on the shortest
	 * interval is derived from it (shortestInterval).
	 */
	rateLimit: number;
}

/**
 * From this version on: Spaces are labelled by their state and a Space seen scheduled or live is
 * emitted again when it starts or ends; direct message joins and leaves are left out unless asked for
 * (and named as such); the authenticated user's own messages can be left out. Version 1 keeps its
 * output as it was.
 */
export const EVENT_KINDS_VERSION = 1.1;

/**
 * From this version on, a pause of the polls long enough for a builder to notice (PAUSE_NOTICE_MS)
 * is reported once as a failed execution that names the reset time, instead of a server log line only.
 * Earlier versions keep the log line alone: a failed execution starts the workflow's error workflow.
 */
export const PAUSE_SIGNAL_VERSION = 1.2;

/**
 * From this version on, the Poll Trigger's modes without since_id first read a page of a few items
 * (poll.ts, IDLE_PAGE) and read on only when its top is not the newest ids remembered: an idle poll
 * reads 2 resources instead of 10 where the endpoint takes so small a page. Earlier versions keep
 * their first page of 10: what a poll emits can differ (the limits of
 * docs/nodes/platform-poll-trigger.md, "What holds, and where it ends").
 */
export const IDLE_READ_VERSION = 1.2;

/**
 * A pause this long or longer is reported (PAUSE_SIGNAL_VERSION): at one poll a minute, five polls or
 * more in a row that read nothing. A shorter pause ends before a builder looking for a run would
 * miss one.
 */
export const PAUSE_NOTICE_MS = 5 * 60_000;

/** The service's rate-limit window, in ms. */
export const RATE_WINDOW_MS = 15 * 60_000;

/**
 * The shortest poll interval, in minutes, that leaves half of a mode's window for the pages a poll
 * with new items reads beyond its first request.
 */
export function shortestInterval(mode: Pick<ModeSpec, 'rateLimit'>): number {
	return Math.max(1, Math.ceil((2 * RATE_WINDOW_MS) / 60_000 / mode.rateLimit));
}

function timeline(value: string): Timeline {
	const found = TIMELINES.find((t) => t.value === value);
	if (!found?.page) throw new Error(`No paginated timeline "${value}"`);
	return found;
}

function owned(
	value: PollMode,
	timelineValue: string,
	rest: Omit<
		ModeSpec,
		'value' | 'kind' | 'page' | 'tokenParam' | 'sinceId' | 'path' | 'authentication'
	>,
): ModeSpec {
	const t = timeline(timelineValue);
	return {
		value,
		kind: t.kind === 'users' ? 'users' : 'posts',
		page: t.page!,
		tokenParam: 'pagination_token',
		sinceId: !!t.bounds,
		path: (id) => `/2/users/${id}/${t.suffix}`,
		authentication:
			rest.subject === 'me'
				? t.authentication.filter((k) => USER_CONTEXT.includes(k))
				: t.authentication,
		...rest,
	};
}

export const MODES: ModeSpec[] = [
	owned('userPosts', 'posts', {
		name: 'New Posts by a User',
		description: "A user's new posts (replies and reposts optional)",
		subject: 'user',
		rateLimit: 900,
	}),
	owned('mentions', 'mentions', {
		name: 'New Mentions of Me',
		description: 'New posts that mention the authenticated user (user-context credential)',
		subject: 'me',
		rateLimit: 180,
	}),
	{
		value: 'search',
		name: 'New Posts Matching a Search Query',
		description: 'New posts of the last 7 days matching a query (recent search)',
		subject: 'none',
		rateLimit: 180,
		authentication: ANY_KIND,
		kind: 'posts',
		page: { min: 10, max: 100 },
		tokenParam: 'next_token',
		sinceId: true,
		path: () => '/2/tweets/search/recent',
	},
	owned('followers', 'followers', {
		name: 'New Followers of a User',
		description: 'Users who started following a user',
		subject: 'user',
		rateLimit: 15,
	}),
	owned('likedPosts', 'likedPosts', {
		name: 'New Liked Posts of a User',
		description: 'Posts a user liked (user-context credential)',
		subject: 'user',
		rateLimit: 75,
	}),
	owned('bookmarks', 'bookmarks', {
		name: 'New Bookmarks',
		description: "The authenticated user's new bookmarks (OAuth2 user-context credential only)",
		subject: 'me',
		rateLimit: 180,
	}),
	{
		value: 'directMessages',
		name: 'New Direct Message Events',
		description:
			'Direct messages sent and received by the authenticated user (user-context credential)',
		subject: 'me',
		rateLimit: 300,
		authentication: USER_CONTEXT,
		kind: 'dmEvents',
		page: { min: 1, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		path: () => '/2/dm_events',
	},
	{
		value: 'listPosts',
		name: 'New Posts in a List',
		description: 'New posts by the members of a list',
		subject: 'list',
		rateLimit: 900,
		authentication: ANY_KIND,
		kind: 'posts',
		page: { min: 1, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		path: (id) => `/2/lists/${id}/tweets`,
	},
	{
		value: 'listMembers',
		name: 'New Members of a List',
		description: 'Users added to a list',
		subject: 'list',
		rateLimit: 900,
		authentication: ANY_KIND,
		kind: 'users',
		page: { min: 1, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		path: (id) => `/2/lists/${id}/members`,
	},
	{
		value: 'listFollowers',
		name: 'New Followers of a List',
		description: 'Users who started following a list',
		subject: 'list',
		rateLimit: 180,
		authentication: ANY_KIND,
		kind: 'users',
		page: { min: 1, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		path: (id) => `/2/lists/${id}/followers`,
	},
	{
		value: 'conversationMessages',
		name: 'New Direct Messages in a Conversation',
		description:
			'Messages and joins or leaves in one direct message conversation of the authenticated user (user-context credential)',
		subject: 'conversation',
		rateLimit: 300,
		needsMe: true,
		authentication: USER_CONTEXT,
		kind: 'dmEvents',
		page: { min: 1, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		path: (id) => `/2/dm_conversations/${id}/dm_events`,
	},
	{
		value: 'quotePosts',
		name: 'New Quote Posts of a Post',
		description: 'New posts that quote a post',
		subject: 'post',
		rateLimit: 75,
		authentication: ANY_KIND,
		kind: 'posts',
		page: { min: 10, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		path: (id) => `/2/tweets/${id}/quote_tweets`,
	},
	{
		value: 'userSpaces',
		name: 'New Spaces of a User',
		description: 'Spaces a user created, live or scheduled',
		subject: 'creator',
		rateLimit: 300,
		// The endpoint takes the app-only bearer and OAuth 2.0, not OAuth 1.0a.
		authentication: APP_OR_OAUTH2,
		kind: 'spaces',
		page: { min: 1, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		unpaged: true,
		path: () => '/2/spaces/by/creator_ids',
		subjectQuery: (id) => ({ user_ids: id }),
	},
];

/** The Spaces fields every item of New Spaces of a User carries. */
const SPACE_FIELDS =
	'id,state,title,created_at,started_at,scheduled_start,ended_at,creator_id,host_ids,lang,is_ticketed,participant_count';

export function modeSpec(value: string): ModeSpec | undefined {
	return MODES.find((m) => m.value === value);
}

/** The fields asked for, by kind (empty values are left out). */
export function fieldQuery(
	kind: ItemKind,
	fields: { postFields: string; expansions: string; userFields: string },
): IDataObject {
	const qs: IDataObject = {};
	const set = (key: string, value: string) => {
		const list = value
			.split(',')
			.map((v) => v.trim())
			.filter(Boolean)
			.join(',');
		if (list) qs[key] = list;
	};
	if (kind === 'posts') {
		set('tweet.fields', fields.postFields);
		set('expansions', fields.expansions);
		set('user.fields', fields.userFields);
	} else if (kind === 'users') {
		set('user.fields', fields.userFields);
	} else if (kind === 'spaces') {
		qs['space.fields'] = SPACE_FIELDS;
		qs.expansions = 'creator_id';
		set('user.fields', fields.userFields);
	} else {
		qs['dm_event.fields'] =
			'id,event_type,text,sender_id,dm_conversation_id,created_at,attachments,participant_ids';
		qs.expansions = 'sender_id';
		set('user.fields', fields.userFields);
	}
	return qs;
}
