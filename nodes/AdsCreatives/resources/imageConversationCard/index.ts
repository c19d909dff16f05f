import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deleteImageConversationCard } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const imageConversationCard: Resource = {
	option: { name: 'Image Conversation Card', value: 'imageConversationCard' },
	defaultOperation: 'create',
	properties: [accountLocator('imageConversationCard')],
	operations: { create, get, getMany, update, delete: deleteImageConversationCard },
};
