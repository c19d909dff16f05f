import type { Resource } from '../../../shared/router';
import { count } from './count';
import { create } from './create';
import { deletePost } from './delete';
import { edit } from './edit';
import { get } from './get';
import { search } from './search';

export const post: Resource = {
	option: { name: 'Post', value: 'post' },
	defaultOperation: 'create',
	operations: { count, create, delete: deletePost, edit, get, search },
};
