import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND, USER_CONTEXT } from '../shared/authentication';
import type { Timeline } from '../shared/timelines';
import type { CredentialKind } from '../shared/transport';
import { TIMELINES } from '../shared/timelines';

/**
 * What each mode of the Poll Trigger reads. Every endpoint answers newest first. Where it takes
 * `since_id` (a user's posts, mentions, recent search) the service returns only newer items; the
 * others (liked posts, bookmarks, followers, direct messages) are read until an id seen before.
 */

export type PollMode =
	| 'userPosts'
	| 'mentions'
	| 'search'
	| 'followers'
	| 'likedPosts'
	| 'bookmarks'
	| 'directMessages';

export type ItemKind = 'posts' | 'users' | 'dmEvents';

export interface ModeSpec {
	value: PollMode;
	name: string;
	description: string;
	/** Whose data: a user entered in the node, the authenticated user, or nobody (search). */
	subject: 'user' | 'me' | 'none';
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
	path(subjectId: string): string;
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
	}),
	owned('mentions', 'mentions', {
		name: 'New Mentions of Me',
		description: 'New posts that mention the authenticated user (user-context credential)',
		subject: 'me',
	}),
	{
		value: 'search',
		name: 'New Posts Matching a Search Query',
		description: 'New posts of the last 7 days matching a query (recent search)',
		subject: 'none',
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
	}),
	owned('likedPosts', 'likedPosts', {
		name: 'New Liked Posts of a User',
		description: 'Posts a user liked (user-context credential)',
		subject: 'user',
	}),
	owned('bookmarks', 'bookmarks', {
		name: 'New Bookmarks',
		description: "The authenticated user's new bookmarks (OAuth2 user-context credential only)",
		subject: 'me',
	}),
	{
		value: 'directMessages',
		name: 'New Direct Message Events',
		description:
			'Direct messages sent and received by the authenticated user (user-context credential)',
		subject: 'me',
		authentication: USER_CONTEXT,
		kind: 'dmEvents',
		page: { min: 1, max: 100 },
		tokenParam: 'pagination_token',
		sinceId: false,
		path: () => '/2/dm_events',
	},
];

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
	} else {
		qs['dm_event.fields'] =
			'id,event_type,text,sender_id,dm_conversation_id,created_at,attachments,participant_ids';
		qs.expansions = 'sender_id';
		set('user.fields', fields.userFields);
	}
	return qs;
}
