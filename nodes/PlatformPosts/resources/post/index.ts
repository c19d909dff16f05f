import type { Resource } from '../../../shared/router';
import { create } from './create';
import { deletePost } from './delete';
import { get } from './get';
import { search } from './search';

export const post: Resource = {
	option: { name: 'Post', value: 'post' },
	defaultOperation: 'create',
	operations: { create, delete: deletePost, get, search },
};
