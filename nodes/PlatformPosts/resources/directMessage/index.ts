import type { Resource } from '../../../shared/router';
import { blockDms, unblockDms } from './blockDms';
import { createGroupConversation } from './createGroupConversation';
import { deleteEvent } from './deleteEvent';
import { getConversationEvents } from './getConversationEvents';
import { getEvent } from './getEvent';
import { getManyEvents } from './getManyEvents';
import { send } from './send';
import { sendToConversation } from './sendToConversation';

export const directMessage: Resource = {
	option: { name: 'Direct Message', value: 'directMessage' },
	defaultOperation: 'send',
	operations: {
		send,
		sendToConversation,
		createGroupConversation,
		getManyEvents,
		getConversationEvents,
		getEvent,
		deleteEvent,
		blockDms,
		unblockDms,
	},
};
