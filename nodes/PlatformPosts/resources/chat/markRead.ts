import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { chatConversationId, chatConversationIdProperty, requiredText } from './common';

export const markRead: ItemOperation = {
	option: {
		name: 'Mark as Read',
		value: 'markRead',
		description:
			'Mark a chat conversation as read up to a message, as the authenticated user. Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).',
		action: 'Mark a chat conversation as read',
	},
	properties: [
		chatConversationIdProperty,
		{
			displayName: 'Read Up To (Sequence ID)',
			name: 'seenUntilSequenceId',
			type: 'string',
			default: '',
			required: true,
			description:
				'The sequence_id of the last message read (Get Messages returns it with each message)',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const conversationId = chatConversationId(ctx, itemIndex);
		const seen = requiredText(ctx, itemIndex, 'seenUntilSequenceId', 'Read Up To (Sequence ID)');
		const response = await ctx.request({
			method: 'POST',
			path: `/2/chat/conversations/${encodeURIComponent(conversationId)}/read`,
			body: { seen_until_sequence_id: seen },
			// Marking read up to the same message twice leaves the same state.
			retryTransient: true,
		});
		return {
			conversation_id: conversationId,
			seen_until_sequence_id: seen,
			...(unwrapData<IDataObject>(response) ?? {}),
		};
	},
};
