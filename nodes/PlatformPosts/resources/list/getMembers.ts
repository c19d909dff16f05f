import { listUsersOperation } from './common';

export const getMembers = listUsersOperation({
	name: 'Get Members',
	value: 'getMembers',
	action: "Get a list's members",
	description: 'Read the users who are members of a list, 100 per request',
	suffix: 'members',
});
