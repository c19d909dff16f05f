import { myListOperation } from './common';

export const unpin = myListOperation({
	name: 'Unpin',
	value: 'unpin',
	action: 'Unpin a list',
	description: "Unpin a list from the authenticated user's lists",
	method: 'DELETE',
	suffix: 'pinned_lists',
});
