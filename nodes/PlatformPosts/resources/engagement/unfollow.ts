import { engagementOperation } from './common';

export const unfollow = engagementOperation({
	name: 'Unfollow',
	value: 'unfollow',
	action: 'Unfollow an account',
	description:
		'Stop following a user as the authenticated user. Needs a user-context credential (OAuth2 scope follows.write).',
	target: 'user',
	method: 'DELETE',
	path: (me, id) => `/2/users/${me}/following/${id}`,
	tierRestricted: 'Unfollowing users',
});
