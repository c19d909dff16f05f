import { engagementOperation } from './common';

export const unlike = engagementOperation({
	name: 'Unlike',
	value: 'unlike',
	action: 'Unlike a post',
	description:
		"Remove the authenticated user's like from a post. Needs a user-context credential (OAuth2 scope like.write).",
	target: 'post',
	method: 'DELETE',
	path: (me, id) => `/2/users/${me}/likes/${id}`,
	tierRestricted: 'Unliking posts',
});
