import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { UploadedMedia } from '../../../shared/media';
import { checkMedia, MAX_ALT_TEXT, setAltText } from '../../../shared/media';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';

const OP = 'uploadSingle';

const schema = z.object({
	binaryPropertyName: z.string().min(1, 'is required'),
	purpose: z.enum(['post', 'dm', 'subtitles'], {
		errorMap: () => ({ message: 'must be Post Image, Direct Message Image or Subtitles' }),
	}),
	altText: z.string().max(MAX_ALT_TEXT, `at most ${MAX_ALT_TEXT} characters`).optional(),
});

const LABELS = {
	binaryPropertyName: 'Input Binary Field',
	purpose: 'Purpose',
	altText: 'Alt Text',
};

/**
 * Media → Upload (Single Request): an image or a subtitle file in one request (POST
 * /2/media/upload, the file base64 in a JSON body, so that every credential kind signs it the same
 * way). The service takes only images and subtitle files this way (categories tweet_image, dm_image,
 * subtitles); GIFs and videos need Upload, whose chunked protocol also waits for processing. Upload
 * itself is unchanged: saved workflows keep their three-step requests and output.
 */
export const uploadSingleOperation: ItemOperation = {
	option: {
		name: 'Upload (Single Request)',
		value: OP,
		description:
			'Upload a small image (up to 5 MB) or a subtitle file in one request instead of three; returns its media ID and media key. For GIFs and videos use Upload. Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Upload an image or subtitles in one request',
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
			description: 'Where the file will be used; it picks the upload category',
			options: [
				{
					name: 'Post Image',
					value: 'post',
					description: 'A JPEG, PNG, WebP or BMP image for posts (tweet_image)',
				},
				{
					name: 'Direct Message Image',
					value: 'dm',
					description: 'A JPEG, PNG, WebP or BMP image for direct messages (dm_image)',
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
			displayOptions: { show: { purpose: ['post', 'dm'] } },
			description: 'Optional: what the image shows, up to 1,000 characters',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number): Promise<INodeExecutionData[]> {
		const purpose = String(ctx.getNodeParameter('purpose', itemIndex, 'post'));
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
		// The same checks as Upload (type, size), before any request.
		const { kind, mediaType, category } = checkMedia(ctx, itemIndex, data, binary, {
			purpose: input.purpose,
			field: input.binaryPropertyName,
		});
		if (kind !== 'image' && kind !== 'subtitles') {
			throw new NodeOperationError(
				ctx.getNode(),
				`${binary.fileName ? `"${binary.fileName}"` : 'The binary file'} (${input.binaryPropertyName}) in item ${itemIndex + 1} is ${kind === 'gif' ? 'a GIF' : 'a video'}; a single request uploads images and subtitle files only`,
				{
					itemIndex,
					description:
						'Use Media → Upload for GIFs and videos: it also waits for their processing.',
				},
			);
		}
		const answer = unwrapData<IDataObject>(
			await ctx.request({
				method: 'POST',
				path: '/2/media/upload',
				body: { media: data.toString('base64'), media_category: category, media_type: mediaType },
			}),
		);
		if (!answer?.id) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The media upload of item ${itemIndex + 1} did not return a media ID`,
				{ itemIndex },
			);
		}
		const uploaded: UploadedMedia = {
			id: String(answer.id),
			media_key: answer.media_key ? String(answer.media_key) : '',
			type: kind,
			media_type: mediaType,
			media_category: category,
			file_name: binary.fileName ?? null,
			size: data.length,
			processing_state: 'succeeded',
		};
		const json: IDataObject = { ...uploaded };
		if (input.altText) {
			await setAltText.call(ctx, itemIndex, uploaded.id, input.altText);
			json.alt_text = input.altText;
		}
		const item = ctx.getInputData()[itemIndex];
		return [{ json, ...(item.binary ? { binary: item.binary } : {}) }];
	},
};
