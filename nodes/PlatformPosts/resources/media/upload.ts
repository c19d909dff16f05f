import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import type { MediaPurpose } from '../../../shared/media';
import {
	maxProcessingWaitOption,
	uploadMedia,
	MAX_ALT_TEXT,
	setAltText,
} from '../../../shared/media';
import { validateInput } from '../../../shared/validation';

const OP = 'upload';

const schema = z.object({
	binaryPropertyName: z.string().min(1, 'is required'),
	purpose: z.enum(['post', 'dm', 'ads', 'subtitles'], {
		errorMap: () => ({ message: 'must be Post, Direct Message, Ad Video or Subtitles' }),
	}),
	altText: z.string().max(MAX_ALT_TEXT, `at most ${MAX_ALT_TEXT} characters`).optional(),
});

const LABELS = {
	binaryPropertyName: 'Input Binary Field',
	purpose: 'Purpose',
	altText: 'Alt Text',
};

/**
 * Media → Upload: one binary property to an id (for posts and direct messages) and a media key
 * (for the ads API: media library, cards). The input binary is passed on untouched.
 */
export const uploadOperation: ItemOperation = {
	option: {
		name: 'Upload',
		value: OP,
		description:
			'Upload an image, GIF, video or subtitle file from a binary property; returns its media ID (for posts and direct messages) and media key (for ads: media library, cards). Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Upload media',
	},
	properties: [
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			description: 'The name of the input binary field holding the file to upload',
		},
		{
			displayName: 'Purpose',
			name: 'purpose',
			type: 'options',
			default: 'post',
			description:
				'Where the media will be used; it picks the upload category (and the limits the service applies)',
			options: [
				{
					name: 'Post',
					value: 'post',
					description: 'Images, GIFs and videos for posts (tweet_image, tweet_gif, tweet_video)',
				},
				{
					name: 'Direct Message',
					value: 'dm',
					description: 'Attachments of direct messages (dm_image, dm_gif, dm_video)',
				},
				{
					name: 'Ad Video or Ad Image',
					value: 'ads',
					description:
						'Media for the ads API: videos as amplify_video (preroll, video cards, media library), images and GIFs as for posts',
				},
				{
					name: 'Subtitles',
					value: 'subtitles',
					description: 'An SRT (.srt) or WebVTT (.vtt) caption file (subtitles)',
				},
			],
		},
		{
			displayName: 'Alt Text',
			name: 'altText',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			displayOptions: { show: { purpose: ['post', 'dm', 'ads'] } },
			description: 'Optional: what an image or GIF shows, up to 1,000 characters (not for videos)',
		},
	],
	options: [maxProcessingWaitOption],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number): Promise<INodeExecutionData[]> {
		const purpose = ctx.getNodeParameter('purpose', itemIndex, 'post') as MediaPurpose;
		const altText =
			purpose === 'subtitles' ? '' : String(ctx.getNodeParameter('altText', itemIndex, '') ?? '');
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				binaryPropertyName: String(
					ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '',
				).trim(),
				purpose,
				altText: altText.trim() ? altText : undefined,
			},
			itemIndex,
			LABELS,
		);
		const binary = ctx.helpers.assertBinaryData(itemIndex, input.binaryPropertyName);
		const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, input.binaryPropertyName);
		const accept = input.altText ? (['image', 'gif'] as const) : undefined;
		const uploaded = await uploadMedia.call(ctx, itemIndex, data, binary, {
			purpose: input.purpose,
			field: input.binaryPropertyName,
			...(accept ? { accept: [...accept] } : {}),
		});
		const json: IDataObject = { ...uploaded };
		if (input.altText) {
			await setAltText.call(ctx, itemIndex, uploaded.id, input.altText);
			json.alt_text = input.altText;
		}
		const item = ctx.getInputData()[itemIndex];
		return [{ json, ...(item.binary ? { binary: item.binary } : {}) }];
	},
};
