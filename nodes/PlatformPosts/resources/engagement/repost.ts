import { engagementOperation } from './common';

export const repost = engagementOperation({
	name: 'Repost',
	value: 'repost',
	action: 'Repost a post',
	description:
		'Repost a post as the authenticated user. Needs a user-context credential (OAuth2 scope tweet.write).',
	target: 'post',
	method: 'POST',
	path: (me) => `/2/users/${me}/retweets`,
	body: (id) => ({ tweet_id: id }),
});
