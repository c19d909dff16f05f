import { memberOperation } from './member';

export const addMember = memberOperation({
	name: 'Add Member',
	value: 'addMember',
	action: 'Add a member to a list',
	description: 'Add a user to a list the authenticated user owns',
	method: 'POST',
});
