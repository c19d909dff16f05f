import type { Resource } from '../../../shared/router';
import { get } from './get';
import { search } from './search';

export const community: Resource = {
	option: { name: 'Community', value: 'community' },
	defaultOperation: 'get',
	operations: {
		get,
		search,
	},
};
