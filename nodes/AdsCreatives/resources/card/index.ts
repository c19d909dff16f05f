import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deleteCard } from './delete';
import { deleteImageConversation } from './deleteImageConversation';
import { get } from './get';
import { getById } from './getById';
import { getByUris } from './getByUris';
import { getMany } from './getMany';
import { update } from './update';

export const card: Resource = {
	option: { name: 'Card', value: 'card' },
	defaultOperation: 'create',
	properties: [accountLocator('card')],
	operations: {
		create,
		get,
		getMany,
		getById,
		getByUris,
		update,
		delete: deleteCard,
		deleteImageConversation,
	},
};
