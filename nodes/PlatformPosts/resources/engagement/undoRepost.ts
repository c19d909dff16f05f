import { engagementOperation } from './common';

export const undoRepost = engagementOperation({
	name: 'Undo Repost',
	value: 'undoRepost',
	action: 'Undo a repost',
	description:
		"Undo the authenticated user's repost of a post (give the original post). Needs a user-context credential (OAuth2 scope tweet.write).",
	target: 'post',
	method: 'DELETE',
	path: (me, id) => `/2/users/${me}/retweets/${id}`,
});
