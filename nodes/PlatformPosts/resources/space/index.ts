import type { Resource } from '../../../shared/router';
import { get } from './get';
import { getBuyers } from './getBuyers';
import { getByCreators } from './getByCreators';
import { getMany } from './getMany';
import { getPosts } from './getPosts';
import { search } from './search';

export const space: Resource = {
	option: { name: 'Space', value: 'space' },
	defaultOperation: 'get',
	operations: {
		get,
		getMany,
		getByCreators,
		search,
		getBuyers,
		getPosts,
	},
};
