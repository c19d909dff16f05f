import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import { SEGMENT_BYTES } from '../../../shared/media';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { chatConversationId, chatConversationIdProperty, invalidInput } from './common';

/** The service numbers segments 0-999. */
const MAX_SEGMENTS = 1000;

export const uploadMedia: ItemOperation = {
	option: {
		name: 'Upload Media',
		value: 'uploadMedia',
		description:
			'Upload an encrypted media file for a chat conversation, in segments of 4 MB (initialize, append, finalize). The file must already be encrypted by a chat client library; the answer names its media hash key, which the message refers to. Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Upload chat media',
	},
	properties: [
		chatConversationIdProperty,
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			description: 'The name of the input binary field holding the encrypted file',
		},
		{
			displayName: 'Additional Fields',
			name: 'chatUploadFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Message ID',
					name: 'messageId',
					type: 'string',
					default: '',
					description:
						'The ID of the message the media belongs to, where the chat client names one',
				},
				{
					displayName: 'Time to Live (Ms)',
					name: 'ttlMsec',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					description:
						'How long the media is kept, in milliseconds (for disappearing messages); 0 sends none',
				},
			],
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const conversationId = chatConversationId(ctx, itemIndex);
		const property = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
		const extra = (ctx.getNodeParameter('chatUploadFields', itemIndex, {}) ?? {}) as IDataObject;
		const binary = ctx.helpers.assertBinaryData(itemIndex, property);
		const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
		const what = `${binary.fileName ? `"${binary.fileName}"` : 'the binary file'} (${property})`;
		if (!data.length) throw invalidInput(ctx, itemIndex, `${what} is empty`);
		const segments = Math.ceil(data.length / SEGMENT_BYTES);
		if (segments > MAX_SEGMENTS)
			throw invalidInput(
				ctx,
				itemIndex,
				`${what} is larger than ${MAX_SEGMENTS} segments of ${SEGMENT_BYTES / 1024 / 1024} MB`,
			);
		const session = unwrapData<IDataObject>(
			await ctx.request({
				method: 'POST',
				path: '/2/chat/media/upload/initialize',
				body: { conversation_id: conversationId, total_bytes: data.length },
			}),
		);
		if (!session?.session_id || !session.media_hash_key)
			throw new NodeOperationError(
				ctx.getNode(),
				`The chat media upload of ${what} in item ${itemIndex + 1} did not return a session`,
				{ itemIndex },
			);
		const sessionId = String(session.session_id);
		const hashKey = String(session.media_hash_key);
		const sessionPath = `/2/chat/media/upload/${encodeURIComponent(sessionId)}`;
		for (let segment = 0; segment < segments; segment++) {
			const offset = segment * SEGMENT_BYTES;
			await ctx.request({
				method: 'POST',
				path: `${sessionPath}/append`,
				body: {
					media: data.subarray(offset, offset + SEGMENT_BYTES).toString('base64'),
					segment_index: segment,
					conversation_id: conversationId,
					media_hash_key: hashKey,
				},
				// A segment sent again replaces itself: safe to repeat.
				retryTransient: true,
			});
		}
		const finalize: IDataObject = {
			conversation_id: conversationId,
			media_hash_key: hashKey,
			num_parts: String(segments),
		};
		const messageId = String(extra.messageId ?? '').trim();
		if (messageId) finalize.message_id = messageId;
		if (Number(extra.ttlMsec) > 0) finalize.ttl_msec = String(Math.floor(Number(extra.ttlMsec)));
		const finalized = unwrapData<IDataObject>(
			await ctx.request({ method: 'POST', path: `${sessionPath}/finalize`, body: finalize }),
		);
		if (finalized && finalized.success === false)
			throw new NodeOperationError(
				ctx.getNode(),
				`The service did not accept the chat media upload of ${what} in item ${itemIndex + 1}`,
				{ itemIndex, description: `Session ${sessionId}, media hash key ${hashKey}.` },
			);
		return {
			conversation_id: conversationId,
			media_hash_key: hashKey,
			session_id: sessionId,
			file_name: binary.fileName ?? null,
			size: data.length,
			segments,
		};
	},
};
