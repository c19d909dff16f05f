import { engagementOperation } from './common';

export const follow = engagementOperation({
	name: 'Follow',
	value: 'follow',
	action: 'Follow an account',
	description:
		'Follow a user as the authenticated user (a protected account gets a follow request: pending_follow). Needs a user-context credential (OAuth2 scope follows.write). Following was removed from the self-serve API tiers; only Enterprise access allows it.',
	target: 'user',
	method: 'POST',
	path: (me) => `/2/users/${me}/following`,
	body: (id) => ({ target_user_id: id }),
	tierRestricted: 'Following users',
});
