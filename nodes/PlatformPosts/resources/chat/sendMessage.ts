import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { chatConversationId, chatConversationIdProperty, requiredText } from './common';

export const sendMessage: ItemOperation = {
	option: {
		name: 'Send Message',
		value: 'sendMessage',
		description:
			'Send an encrypted message to a chat conversation: the message event comes ready-encrypted and encoded from a chat client library (the node does not encrypt). Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).',
		action: 'Send a chat message',
	},
	properties: [
		chatConversationIdProperty,
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			default: '',
			required: true,
			description: 'The ID the chat client gave the message (the one inside the encoded event)',
		},
		{
			displayName: 'Encoded Message Event',
			name: 'encodedMessageCreateEvent',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			description:
				'The encrypted message create event, base64-encoded, as the chat client built it',
		},
		{
			displayName: 'Additional Fields',
			name: 'chatMessageFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Conversation Token',
					name: 'conversationToken',
					type: 'string',
					typeOptions: { password: true },
					default: '',
					description: "The conversation's token, where the chat client names one",
				},
				{
					displayName: 'Encoded Event Signature',
					name: 'encodedMessageEventSignature',
					type: 'string',
					default: '',
					description: "The message event's signature, base64-encoded, as the chat client built it",
				},
			],
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const conversationId = chatConversationId(ctx, itemIndex);
		const messageId = requiredText(ctx, itemIndex, 'messageId', 'Message ID');
		const encoded = requiredText(
			ctx,
			itemIndex,
			'encodedMessageCreateEvent',
			'Encoded Message Event',
		);
		const extra = (ctx.getNodeParameter('chatMessageFields', itemIndex, {}) ?? {}) as IDataObject;
		const body: IDataObject = { message_id: messageId, encoded_message_create_event: encoded };
		const token = String(extra.conversationToken ?? '').trim();
		const signature = String(extra.encodedMessageEventSignature ?? '').trim();
		if (token) body.conversation_token = token;
		if (signature) body.encoded_message_event_signature = signature;
		const response = await ctx.request({
			method: 'POST',
			path: `/2/chat/conversations/${encodeURIComponent(conversationId)}/messages`,
			body,
			unsafeFailureHint:
				'The message may have been sent: check the conversation (Get Messages) before sending it again.',
		});
		return {
			conversation_id: conversationId,
			message_id: messageId,
			...(unwrapData<IDataObject>(response) ?? {}),
		};
	},
};
