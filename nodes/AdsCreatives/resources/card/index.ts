import type { Resource } from '../../../shared/router';
import { create } from './create';
import { deleteCard } from './delete';
import { getMany } from './getMany';

export const card: Resource = {
	option: { name: 'Card', value: 'card' },
	defaultOperation: 'create',
	operations: { create, getMany, delete: deleteCard },
};
