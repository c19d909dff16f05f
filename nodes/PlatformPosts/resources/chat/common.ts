import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OperationContext } from '../../../shared/router';

/**
 * Chat is the service's end-to-end encrypted messaging: messages, group names and media travel
 * encrypted, and the node moves them as the service hands them over (base64 events, encrypted
 * bytes). Encrypting and decrypting is left to the chat client library that holds the keys.
 */

/** A chat conversation ID: two user IDs joined by "-" (one-to-one) or "g" and digits (a group). */
export const CHAT_CONVERSATION_ID = /^(\d{1,19}-\d{1,19}|g\d{1,19})$/;
/** The key of one uploaded media file within its conversation. */
export const MEDIA_HASH_KEY = /^[a-zA-Z0-9]{1,50}$/;

export function invalidInput(ctx: OperationContext, itemIndex: number, message: string) {
	return new NodeOperationError(
		ctx.getNode(),
		`Invalid input in item ${itemIndex + 1}: ${message}`,
		{
			itemIndex,
		},
	);
}

export const chatConversationIdProperty: INodeProperties = {
	displayName: 'Conversation ID',
	name: 'conversationId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'g1580705921830768643',
	description:
		'The chat conversation: two user IDs joined by "-" for a one-to-one conversation, or "g" and digits for a group (the ID Get Many Conversations returns)',
};

export function chatConversationId(ctx: OperationContext, itemIndex: number): string {
	const id = String(ctx.getNodeParameter('conversationId', itemIndex, '') ?? '').trim();
	if (!CHAT_CONVERSATION_ID.test(id))
		throw invalidInput(
			ctx,
			itemIndex,
			`Conversation ID: "${id}" is not a chat conversation ID (two user IDs joined by "-", or "g" and digits)`,
		);
	return id;
}

/** A required text field, trimmed; refused when empty. */
export function requiredText(
	ctx: OperationContext,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const value = String(ctx.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!value) throw invalidInput(ctx, itemIndex, `${label} is empty`);
	return value;
}

export const choices = (values: string[]) => values.map((value) => ({ name: value, value }));
