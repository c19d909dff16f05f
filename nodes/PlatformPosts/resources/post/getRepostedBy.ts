import { ANY_KIND } from '../../../shared/authentication';
import { relatedOperation } from './related';

export const getRepostedBy = relatedOperation({
	name: 'Get Reposted By',
	value: 'getRepostedBy',
	action: 'Get users who reposted a post',
	description: 'List the users who reposted a post',
	suffix: 'retweeted_by',
	kind: 'users',
	page: { min: 1, max: 100 },
	authentication: ANY_KIND,
});
