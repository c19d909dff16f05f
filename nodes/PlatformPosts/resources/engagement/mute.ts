import { engagementOperation } from './common';

export const mute = engagementOperation({
	name: 'Mute',
	value: 'mute',
	action: 'Mute an account',
	description:
		"Mute a user as the authenticated user: their posts no longer show in the authenticated user's timeline, and they are not told. Needs a user-context credential (OAuth2 scope mute.write).",
	target: 'user',
	method: 'POST',
	path: (me) => `/2/users/${me}/muting`,
	body: (id) => ({ target_user_id: id }),
});
