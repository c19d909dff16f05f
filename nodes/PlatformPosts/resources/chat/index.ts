import type { Resource } from '../../../shared/router';
import { downloadMedia } from './downloadMedia';
import { getManyConversations } from './getManyConversations';
import { getMessages } from './getMessages';
import { markRead } from './markRead';
import { addPublicKey, getPublicKeys } from './publicKeys';
import { sendMessage } from './sendMessage';
import { sendTypingIndicator } from './sendTypingIndicator';
import { uploadMedia } from './uploadMedia';

/** The encrypted chat: conversations, messages, media and the users' public keys. */
export const chat: Resource = {
	option: { name: 'Chat', value: 'chat' },
	defaultOperation: 'getManyConversations',
	operations: {
		getManyConversations,
		getMessages,
		sendMessage,
		markRead,
		sendTypingIndicator,
		uploadMedia,
		downloadMedia,
		getPublicKeys,
		addPublicKey,
	},
};
