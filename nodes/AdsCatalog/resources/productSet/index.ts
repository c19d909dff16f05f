import type { Resource } from '../../../shared/router';
import { catalogLocator } from '../../common';
import { create } from './create';
import { deleteProductSet } from './delete';
import { get } from './get';
import { update } from './update';

export const productSet: Resource = {
	option: { name: 'Product Set', value: 'productSet' },
	defaultOperation: 'get',
	// Every operation of the resource acts within one catalog.
	properties: [catalogLocator()],
	operations: { create, delete: deleteProductSet, get, update },
};
