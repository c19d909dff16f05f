import { engagementOperation } from './common';

export const bookmark = engagementOperation({
	name: 'Bookmark',
	value: 'bookmark',
	action: 'Bookmark a post',
	description:
		"Add a post to the authenticated user's bookmarks. Needs a user-context credential (OAuth2 scope bookmark.write).",
	target: 'post',
	method: 'POST',
	path: (me) => `/2/users/${me}/bookmarks`,
	body: (id) => ({ tweet_id: id }),
});
