import type { Resource } from '../../../shared/router';
import { get } from './get';
import { search } from './search';

export const news: Resource = {
	option: { name: 'News', value: 'news' },
	defaultOperation: 'search',
	operations: {
		get,
		search,
	},
};
