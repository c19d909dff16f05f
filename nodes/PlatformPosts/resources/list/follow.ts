import { myListOperation } from './common';

export const follow = myListOperation({
	name: 'Follow',
	value: 'follow',
	action: 'Follow a list',
	description:
		"Follow a list as the authenticated user: its posts appear in the user's lists. Following lists is not offered on the Basic and Pro access tiers (since June 2023).",
	method: 'POST',
	suffix: 'followed_lists',
});
