import { memberOperation } from './member';

export const removeMember = memberOperation({
	name: 'Remove Member',
	value: 'removeMember',
	action: 'Remove a member from a list',
	description: 'Remove a user from a list the authenticated user owns',
	method: 'DELETE',
});
