import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { chatConversationId, chatConversationIdProperty } from './common';

export const sendTypingIndicator: ItemOperation = {
	option: {
		name: 'Send Typing Indicator',
		value: 'sendTypingIndicator',
		description:
			'Show the other participants of a chat conversation that the authenticated user is typing. Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).',
		action: 'Send a typing indicator',
	},
	properties: [chatConversationIdProperty],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const conversationId = chatConversationId(ctx, itemIndex);
		const response = await ctx.request({
			method: 'POST',
			path: `/2/chat/conversations/${encodeURIComponent(conversationId)}/typing`,
			retryTransient: true,
		});
		return { conversation_id: conversationId, ...(unwrapData<IDataObject>(response) ?? {}) };
	},
};
