import { USER_CONTEXT } from '../../../shared/authentication';
import { relatedOperation } from './related';

export const getLikingUsers = relatedOperation({
	name: 'Get Liking Users',
	value: 'getLikingUsers',
	action: 'Get users who liked a post',
	description:
		'List the users who liked a post. Needs a user-context credential (OAuth2 scope like.read).',
	suffix: 'liking_users',
	kind: 'users',
	page: { min: 1, max: 100 },
	authentication: USER_CONTEXT,
});
