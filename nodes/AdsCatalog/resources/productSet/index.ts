import type { Resource } from '../../../shared/router';
import { create } from './create';
import { deleteProductSet } from './delete';
import { get } from './get';
import { update } from './update';

export const productSet: Resource = {
	option: { name: 'Product Set', value: 'productSet' },
	defaultOperation: 'get',
	operations: { create, delete: deleteProductSet, get, update },
};
