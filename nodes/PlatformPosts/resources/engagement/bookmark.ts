import { OAUTH2_USER } from '../../../shared/authentication';
import { engagementOperation } from './common';

export const bookmark = engagementOperation({
	name: 'Bookmark',
	value: 'bookmark',
	action: 'Bookmark a post',
	description:
		"Add a post to the authenticated user's bookmarks. Needs the OAuth2 (User Context) authentication (scope bookmark.write): the service takes no OAuth1 or app token for bookmarks.",
	target: 'post',
	method: 'POST',
	path: (me) => `/2/users/${me}/bookmarks`,
	body: (id) => ({ tweet_id: id }),
	// The service takes bookmarks only with an OAuth 2.0 user token.
	authentication: OAUTH2_USER,
});
