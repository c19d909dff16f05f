import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import { uploadBinaryProperty } from '../../../shared/media';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import {
	SUBTITLE_TARGET_LABELS,
	languageCodeProperty,
	mediaIdProperty,
	subtitleTargetInput,
	subtitleTargetSchema,
	videoCategoryProperty,
} from './fields';

const OP = 'addSubtitles';

const schema = z
	.object({
		...subtitleTargetSchema,
		source: z.enum(['binary', 'mediaId']),
		binaryPropertyName: z.string().min(1, 'is required').optional(),
		subtitlesMediaId: z
			.string()
			.regex(/^\d{1,19}$/, 'is not a media ID (1-19 digits)')
			.optional(),
		display_name: z.string().optional(),
	})
	.superRefine((v, issues) => {
		if (v.source === 'binary' && !v.binaryPropertyName)
			issues.addIssue({ code: 'custom', path: ['binaryPropertyName'], message: 'is required' });
		if (v.source === 'mediaId' && !v.subtitlesMediaId)
			issues.addIssue({ code: 'custom', path: ['subtitlesMediaId'], message: 'is required' });
	});

const LABELS = {
	...SUBTITLE_TARGET_LABELS,
	source: 'Subtitles From',
	binaryPropertyName: 'Input Binary Field',
	subtitlesMediaId: 'Subtitles Media ID',
	display_name: 'Display Name',
};

/**
 * Media → Add Subtitles: attaches an SRT or WebVTT file to an uploaded video (POST
 * /2/media/subtitles). A binary file is uploaded first with the package's one media upload
 * (category subtitles), exactly as Upload with Purpose: Subtitles does.
 */
export const addSubtitlesOperation: ItemOperation = {
	option: {
		name: 'Add Subtitles',
		value: OP,
		description:
			'Attach subtitles (an SRT or WebVTT file) in one language to an uploaded video, before or after it is posted. A binary file is uploaded first. Needs a user-context credential (OAuth2 scope media.write).',
		action: 'Add subtitles to a video',
	},
	properties: [
		mediaIdProperty('The ID of the uploaded video (as Upload returned it)'),
		videoCategoryProperty,
		{
			displayName: 'Subtitles From',
			name: 'subtitlesSource',
			type: 'options',
			default: 'binary',
			options: [
				{
					name: 'Binary File',
					value: 'binary',
					description: 'An SRT (.srt) or WebVTT (.vtt) file of the input item, uploaded first',
				},
				{
					name: 'Uploaded Subtitles',
					value: 'mediaId',
					description:
						'The media ID of a subtitle file uploaded earlier (Upload, Purpose: Subtitles)',
				},
			],
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { subtitlesSource: ['binary'] } },
			description: 'The name of the input binary field holding the SRT or WebVTT file',
		},
		{
			displayName: 'Subtitles Media ID',
			name: 'subtitlesMediaId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1455952740635586573',
			displayOptions: { show: { subtitlesSource: ['mediaId'] } },
			description: 'The media ID of the uploaded subtitle file',
		},
		languageCodeProperty,
		{
			displayName: 'Display Name',
			name: 'displayName',
			type: 'string',
			default: '',
			placeholder: 'English',
			description: "Optional: the name viewers see in the video player's subtitle menu",
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const source = String(ctx.getNodeParameter('subtitlesSource', itemIndex, 'binary'));
		const displayName = String(ctx.getNodeParameter('displayName', itemIndex, '') ?? '').trim();
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				...subtitleTargetInput(ctx, itemIndex),
				source,
				...(source === 'binary'
					? {
							binaryPropertyName: String(
								ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '',
							).trim(),
						}
					: {
							subtitlesMediaId: String(
								ctx.getNodeParameter('subtitlesMediaId', itemIndex, '') ?? '',
							).trim(),
						}),
				display_name: displayName || undefined,
			},
			itemIndex,
			LABELS,
		);
		const subtitlesId =
			input.source === 'binary'
				? (
						await uploadBinaryProperty.call(ctx, itemIndex, input.binaryPropertyName!, {
							purpose: 'subtitles',
						})
					).id
				: input.subtitlesMediaId!;
		const subtitles: IDataObject = { id: subtitlesId, language_code: input.language_code };
		if (input.display_name) subtitles.display_name = input.display_name;
		const body = await ctx.request({
			method: 'POST',
			path: '/2/media/subtitles',
			body: { id: input.id, media_category: input.media_category, subtitles },
			// Attaching the same file in the same language again replaces it: safe to retry.
			retryTransient: true,
		});
		return {
			media_id: input.id,
			media_category: input.media_category,
			subtitles_media_id: subtitlesId,
			language_code: input.language_code,
			...(input.display_name ? { display_name: input.display_name } : {}),
			...(unwrapData<IDataObject>(body) ?? {}),
		};
	},
};
