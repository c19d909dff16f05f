import { myListOperation } from './common';

export const pin = myListOperation({
	name: 'Pin',
	value: 'pin',
	action: 'Pin a list',
	description: "Pin a list to the authenticated user's lists",
	method: 'POST',
	suffix: 'pinned_lists',
});
