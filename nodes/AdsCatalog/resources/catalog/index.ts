import type { Resource } from '../../../shared/router';
import { create } from './create';
import { deleteCatalog } from './delete';
import { getMany } from './getMany';
import { update } from './update';

export const catalog: Resource = {
	option: { name: 'Catalog', value: 'catalog' },
	defaultOperation: 'getMany',
	operations: { create, delete: deleteCatalog, getMany, update },
};
