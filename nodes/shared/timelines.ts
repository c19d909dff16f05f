/**
 * The owned reads: GET /2/users/:id/<suffix>, one row per timeline, with each endpoint's max_results
 * bounds and the query it takes. Platform Posts reads them on demand, the Poll Trigger watches them.
 */

import { ANY_KIND, OAUTH2_USER, USER_CONTEXT } from './authentication';
import type { CredentialKind } from './transport';

export type Kind = 'posts' | 'users' | 'lists';

export interface Timeline {
	name: string;
	value: string;
	suffix: string;
	kind: Kind;
	/** max_results bounds; absent when the endpoint does not paginate. */
	page?: { min: number; max: number };
	/** Only the authenticated user's own (bookmarks, blocking, muting, pinned lists). */
	ownOnly?: boolean;
	/** Takes start_time, end_time, since_id, until_id. */
	bounds?: boolean;
	/** Takes exclude (replies, retweets). */
	exclude?: boolean;
	/** The credential kinds the service accepts for the endpoint. */
	authentication: readonly CredentialKind[];
	description: string;
}

export const TIMELINES: Timeline[] = [
	{
		name: 'Posts',
		value: 'posts',
		suffix: 'tweets',
		kind: 'posts',
		page: { min: 5, max: 100 },
		bounds: true,
		exclude: true,
		authentication: ANY_KIND,
		description: "The user's posts, newest first",
	},
	{
		name: 'Mentions',
		value: 'mentions',
		suffix: 'mentions',
		kind: 'posts',
		page: { min: 5, max: 100 },
		bounds: true,
		authentication: ANY_KIND,
		description: 'Posts that mention the user, newest first',
	},
	{
		name: 'Liked Posts',
		value: 'likedPosts',
		suffix: 'liked_tweets',
		kind: 'posts',
		page: { min: 5, max: 100 },
		authentication: USER_CONTEXT,
		description: 'Posts the user liked',
	},
	{
		name: 'Bookmarks',
		value: 'bookmarks',
		suffix: 'bookmarks',
		kind: 'posts',
		page: { min: 1, max: 100 },
		ownOnly: true,
		authentication: OAUTH2_USER,
		description: "The authenticated user's bookmarked posts",
	},
	{
		name: 'Followers',
		value: 'followers',
		suffix: 'followers',
		kind: 'users',
		page: { min: 1, max: 1000 },
		authentication: ANY_KIND,
		description: 'Users who follow the user',
	},
	{
		name: 'Following',
		value: 'following',
		suffix: 'following',
		kind: 'users',
		page: { min: 1, max: 1000 },
		authentication: ANY_KIND,
		description: 'Users the user follows',
	},
	{
		name: 'Blocking',
		value: 'blocking',
		suffix: 'blocking',
		kind: 'users',
		page: { min: 1, max: 1000 },
		ownOnly: true,
		authentication: USER_CONTEXT,
		description: 'Users the authenticated user blocks',
	},
	{
		name: 'Muting',
		value: 'muting',
		suffix: 'muting',
		kind: 'users',
		page: { min: 1, max: 1000 },
		ownOnly: true,
		authentication: USER_CONTEXT,
		description: 'Users the authenticated user mutes',
	},
	{
		name: 'Owned Lists',
		value: 'ownedLists',
		suffix: 'owned_lists',
		kind: 'lists',
		page: { min: 1, max: 100 },
		authentication: ANY_KIND,
		description: 'Lists the user owns',
	},
	{
		name: 'Followed Lists',
		value: 'followedLists',
		suffix: 'followed_lists',
		kind: 'lists',
		page: { min: 1, max: 100 },
		authentication: ANY_KIND,
		description: 'Lists the user follows',
	},
	{
		name: 'List Memberships',
		value: 'listMemberships',
		suffix: 'list_memberships',
		kind: 'lists',
		page: { min: 1, max: 100 },
		authentication: ANY_KIND,
		description: 'Lists the user is a member of',
	},
	{
		name: 'Pinned Lists',
		value: 'pinnedLists',
		suffix: 'pinned_lists',
		kind: 'lists',
		ownOnly: true,
		authentication: USER_CONTEXT,
		description: "The authenticated user's pinned lists (not paginated)",
	},
];

/**
 * The authenticated user's home timeline (GET /2/users/:id/timelines/reverse_chronological): posts of
 * the user and of the accounts it follows, newest first. An operation of its own, not a row of
 * TIMELINES, whose values are the saved choices of the Timeline field and of the Poll Trigger.
 */
export const HOME_TIMELINE: Timeline = {
	name: 'Home Timeline',
	value: 'homeTimeline',
	suffix: 'timelines/reverse_chronological',
	kind: 'posts',
	page: { min: 1, max: 100 },
	ownOnly: true,
	bounds: true,
	exclude: true,
	authentication: USER_CONTEXT,
	description: 'Posts of the authenticated user and the accounts it follows, newest first',
};
