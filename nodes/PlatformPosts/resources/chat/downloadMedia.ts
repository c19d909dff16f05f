import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import {
	chatConversationId,
	chatConversationIdProperty,
	invalidInput,
	MEDIA_HASH_KEY,
} from './common';

export const downloadMedia: ItemOperation = {
	option: {
		name: 'Download Media',
		value: 'downloadMedia',
		description:
			'Download a media file of a chat conversation by its media hash key, as a binary file. The bytes stay encrypted: a chat client library with the conversation key decrypts them. Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Download chat media',
	},
	properties: [
		chatConversationIdProperty,
		{
			displayName: 'Media Hash Key',
			name: 'mediaHashKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'rByqeHiVlD',
			description: 'The key of the media in the conversation (1-50 letters and digits)',
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyOutput',
			type: 'string',
			default: 'data',
			required: true,
			description: 'The name of the output binary field to put the file in',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const conversationId = chatConversationId(ctx, itemIndex);
		const hashKey = String(ctx.getNodeParameter('mediaHashKey', itemIndex, '') ?? '').trim();
		if (!MEDIA_HASH_KEY.test(hashKey))
			throw invalidInput(
				ctx,
				itemIndex,
				`Media Hash Key: "${hashKey}" is not a media hash key (1-50 letters and digits)`,
			);
		const property = String(ctx.getNodeParameter('binaryPropertyOutput', itemIndex, 'data')).trim();
		if (!property) throw invalidInput(ctx, itemIndex, 'Put Output File in Field is empty');
		const answer = await ctx.request<Buffer>({
			method: 'GET',
			path: `/2/chat/media/${encodeURIComponent(conversationId)}/${hashKey}`,
			binaryResponse: true,
		});
		const bytes = Buffer.isBuffer(answer) ? answer : Buffer.from(answer as ArrayBuffer);
		const binary = await ctx.helpers.prepareBinaryData(
			bytes,
			`${hashKey}.bin`,
			'application/octet-stream',
		);
		return [
			{
				json: { conversation_id: conversationId, media_hash_key: hashKey, size: bytes.length },
				binary: { [property]: binary },
			},
		];
	},
};
