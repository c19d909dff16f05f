import { ANY_KIND } from '../../../shared/authentication';
import { relatedOperation } from './related';

export const getReposts = relatedOperation({
	name: 'Get Reposts',
	value: 'getReposts',
	action: 'Get reposts of a post',
	description: 'List the reposts of a post, each a post of its own that references the original',
	suffix: 'retweets',
	kind: 'posts',
	page: { min: 1, max: 100 },
	authentication: ANY_KIND,
});
