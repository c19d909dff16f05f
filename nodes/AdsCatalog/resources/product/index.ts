import type { Resource } from '../../../shared/router';
import { catalogLocator } from '../../common';
import { deleteProducts } from './delete';
import { getMany } from './getMany';
import { push } from './push';

export const product: Resource = {
	option: { name: 'Product', value: 'product' },
	defaultOperation: 'push',
	// Every operation of the resource acts within one catalog.
	properties: [catalogLocator()],
	operations: { push, getMany, delete: deleteProducts },
};
