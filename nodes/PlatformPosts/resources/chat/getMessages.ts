import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { chatConversationId, chatConversationIdProperty, choices } from './common';

const MESSAGE_FIELDS = [
	'conversation_id',
	'conversation_token',
	'created_at_msec',
	'encoded_event',
	'id',
	'is_trusted',
	'message_event_signature',
	'previous_id',
	'sender_id',
];

export const getMessages: ItemOperation = {
	option: {
		name: 'Get Messages',
		value: 'getMessages',
		description:
			"List the message events of a chat conversation (messages and key changes), newest first. Each event comes encoded (base64) and encrypted: a chat client library with the user's keys decodes it. Needs a user-context credential (OAuth2 scopes dm.read, tweet.read, users.read).",
		action: 'Get the messages of a chat conversation',
	},
	properties: [
		chatConversationIdProperty,
		returnAllProperty(),
		limitProperty(10000),
		{
			displayName: 'Message Fields',
			name: 'messageFields',
			type: 'multiOptions',
			default: [],
			options: choices(MESSAGE_FIELDS),
			description: 'Message event fields to return (chat_message_event.fields)',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const conversationId = chatConversationId(ctx, itemIndex);
		const fields = (ctx.getNodeParameter('messageFields', itemIndex, []) as string[]) ?? [];
		const qs: IDataObject = {};
		if (fields.length) qs['chat_message_event.fields'] = fields.join(',');
		return await ctx.paginate(
			{ method: 'GET', path: `/2/chat/conversations/${encodeURIComponent(conversationId)}`, qs },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
			},
		);
	},
};
