import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { maxProcessingWaitOption, uploadBinaryProperty } from '../../../shared/media';
import { userLocator, userRefParameter } from '../../../shared/locators';
import { resolveUserId } from '../../users';

const MAX_TEXT = 10_000;

export const send: ItemOperation = {
	option: {
		name: 'Send',
		value: 'send',
		description:
			'Send a direct message to a user as the authenticated user: text and/or one media attachment (an uploaded binary file or an existing media ID). Needs a user-context credential (OAuth2 scopes dm.write, dm.read).',
		action: 'Send a direct message',
	},
	properties: [
		{
			...userLocator('participant'),
			displayName: 'Recipient',
			description: 'Who receives the message, by username, ID or profile URL',
		},
		{
			displayName: 'Text',
			name: 'text',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description:
				'The message text (up to 10,000 characters). May be empty when an attachment is sent.',
		},
		{
			displayName: 'Attachment',
			name: 'attachment',
			type: 'options',
			default: 'none',
			options: [
				{ name: 'None', value: 'none' },
				{
					name: 'Binary File',
					value: 'binary',
					description: 'Upload a file from the input item, then attach it',
				},
				{ name: 'Media ID', value: 'mediaId', description: 'Attach media uploaded earlier' },
			],
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { attachment: ['binary'] } },
			description: 'The name of the input binary field holding the image, GIF or video to send',
		},
		{
			displayName: 'Media ID',
			name: 'mediaId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1455952740635586573',
			displayOptions: { show: { attachment: ['mediaId'] } },
			description: 'The ID of media uploaded earlier (1-19 digits)',
		},
	],
	options: [maxProcessingWaitOption],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const text = String(ctx.getNodeParameter('text', itemIndex, '') ?? '');
		const attachment = ctx.getNodeParameter('attachment', itemIndex, 'none') as string;
		const invalid = (message: string) =>
			new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${message}`, {
				itemIndex,
			});
		if (!text.trim() && attachment === 'none')
			throw invalid('Text: a message needs text or an attachment');
		if (text.length > MAX_TEXT)
			throw invalid(`Text: at most ${MAX_TEXT} characters (got ${text.length})`);
		let mediaId: string | undefined;
		let mediaKey: string | undefined;
		if (attachment === 'mediaId') {
			mediaId = String(ctx.getNodeParameter('mediaId', itemIndex, '')).trim();
			if (!/^\d{1,19}$/.test(mediaId))
				throw invalid(`Media ID: "${mediaId}" is not a media ID (1-19 digits)`);
		}
		const participant = await resolveUserId.call(
			ctx,
			itemIndex,
			userRefParameter(ctx, 'participant', itemIndex),
		);
		if (attachment === 'binary') {
			const property = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
			const uploaded = await uploadBinaryProperty.call(ctx, itemIndex, property, {
				purpose: 'dm',
			});
			mediaId = uploaded.id;
			mediaKey = uploaded.media_key || undefined;
		}
		const body: IDataObject = {};
		if (text.trim()) body.text = text;
		if (mediaId) body.attachments = [{ media_id: mediaId }];
		const response = await ctx.request({
			method: 'POST',
			path: `/2/dm_conversations/with/${participant}/messages`,
			body,
			unsafeFailureHint:
				'The message may have been sent: check the conversation before sending it again.',
		});
		return {
			...(unwrapData<IDataObject>(response) ?? {}),
			participant_id: participant,
			...(mediaId ? { media_id: mediaId } : {}),
			...(mediaKey ? { media_key: mediaKey } : {}),
		};
	},
};
