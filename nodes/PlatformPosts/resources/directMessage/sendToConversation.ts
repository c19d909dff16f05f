import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { maxProcessingWaitOption } from '../../../shared/media';
import {
	checkMessage,
	conversationIdParameter,
	conversationIdProperty,
	messageBody,
	messageProperties,
	sentMessage,
} from './common';

export const sendToConversation: ItemOperation = {
	option: {
		name: 'Send to Conversation',
		value: 'sendToConversation',
		description:
			'Send a direct message to a conversation the authenticated user takes part in, by its ID (a group conversation, or a one-to-one conversation): text and/or one media attachment. Needs a user-context credential (OAuth2 scopes dm.write, tweet.read, users.read).',
		action: 'Send a message to a conversation',
	},
	properties: [
		{
			...conversationIdProperty,
			description: `${conversationIdProperty.description}. The conversation receives the message.`,
		},
		...messageProperties,
	],
	options: [maxProcessingWaitOption],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const conversationId = conversationIdParameter(ctx, itemIndex);
		const checked = checkMessage(ctx, itemIndex);
		const { body, media } = await messageBody(ctx, itemIndex, checked);
		const response = await ctx.request({
			method: 'POST',
			path: `/2/dm_conversations/${encodeURIComponent(conversationId)}/messages`,
			body,
			unsafeFailureHint:
				'The message may have been sent: check the conversation before sending it again.',
		});
		return { dm_conversation_id: conversationId, ...sentMessage(response), ...media };
	},
};
