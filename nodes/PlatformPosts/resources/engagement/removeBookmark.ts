import { OAUTH2_USER } from '../../../shared/authentication';
import { engagementOperation } from './common';

export const removeBookmark = engagementOperation({
	name: 'Remove Bookmark',
	value: 'removeBookmark',
	action: 'Remove a bookmark',
	description:
		"Remove a post from the authenticated user's bookmarks. Needs the OAuth2 (User Context) authentication (scope bookmark.write): the service takes no OAuth1 or app token for bookmarks.",
	target: 'post',
	method: 'DELETE',
	path: (me, id) => `/2/users/${me}/bookmarks/${id}`,
	// The service takes bookmarks only with an OAuth 2.0 user token.
	authentication: OAUTH2_USER,
});
