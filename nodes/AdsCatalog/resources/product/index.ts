import type { Resource } from '../../../shared/router';
import { deleteProducts } from './delete';
import { getMany } from './getMany';
import { push } from './push';

export const product: Resource = {
	option: { name: 'Product', value: 'product' },
	defaultOperation: 'push',
	operations: { push, getMany, delete: deleteProducts },
};
