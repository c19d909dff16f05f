import { myListOperation } from './common';

export const unfollow = myListOperation({
	name: 'Unfollow',
	value: 'unfollow',
	action: 'Unfollow a list',
	description: 'Stop following a list as the authenticated user',
	method: 'DELETE',
	suffix: 'followed_lists',
});
