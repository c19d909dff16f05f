import { engagementOperation } from './common';

export const removeBookmark = engagementOperation({
	name: 'Remove Bookmark',
	value: 'removeBookmark',
	action: 'Remove a bookmark',
	description:
		"Remove a post from the authenticated user's bookmarks. Needs a user-context credential (OAuth2 scope bookmark.write).",
	target: 'post',
	method: 'DELETE',
	path: (me, id) => `/2/users/${me}/bookmarks/${id}`,
});
