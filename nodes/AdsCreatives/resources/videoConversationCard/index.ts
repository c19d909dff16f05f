import type { Resource } from '../../../shared/router';
import { accountLocator } from '../../account';
import { create } from './create';
import { deleteVideoConversationCard } from './delete';
import { get } from './get';
import { getMany } from './getMany';
import { update } from './update';

export const videoConversationCard: Resource = {
	option: { name: 'Video Conversation Card', value: 'videoConversationCard' },
	defaultOperation: 'create',
	properties: [accountLocator('videoConversationCard')],
	operations: { create, get, getMany, update, delete: deleteVideoConversationCard },
};
