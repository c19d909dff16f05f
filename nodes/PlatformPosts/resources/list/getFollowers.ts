import { listUsersOperation } from './common';

export const getFollowers = listUsersOperation({
	name: 'Get Followers',
	value: 'getFollowers',
	action: "Get a list's followers",
	description: 'Read the users who follow a list, 100 per request',
	suffix: 'followers',
});
