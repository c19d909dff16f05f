import { engagementOperation } from './common';

export const unmute = engagementOperation({
	name: 'Unmute',
	value: 'unmute',
	action: 'Unmute an account',
	description:
		'Stop muting a user as the authenticated user. Needs a user-context credential (OAuth2 scope mute.write).',
	target: 'user',
	method: 'DELETE',
	path: (me, id) => `/2/users/${me}/muting/${id}`,
});
