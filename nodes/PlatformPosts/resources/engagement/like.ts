import { engagementOperation } from './common';

export const like = engagementOperation({
	name: 'Like',
	value: 'like',
	action: 'Like a post',
	description:
		'Like a post as the authenticated user. Needs a user-context credential (OAuth2 scope like.write). Liking was removed from the self-serve API tiers; only Enterprise access allows it.',
	target: 'post',
	method: 'POST',
	path: (me) => `/2/users/${me}/likes`,
	body: (id) => ({ tweet_id: id }),
	tierRestricted: 'Liking posts',
});
