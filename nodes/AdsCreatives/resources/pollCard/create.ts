import type { INodeProperties } from 'n8n-workflow';
import { single } from '../../../shared/ads';
import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { compact, mediaKey, objectName } from '../../shared/fields';
import { maxProcessingWaitOption } from '../../../shared/media';
import { libraryKeyFromBinary, mediaSourceProperty } from '../../shared/media';

const choice = z.string().max(25, 'at most 25 characters');

const pollCardSchema = z
	.object({
		name: objectName.min(1, 'is required'),
		duration_in_minutes: z
			.number({ invalid_type_error: 'must be a number of minutes' })
			.int('must be a whole number of minutes')
			.min(5, 'at least 5 minutes')
			.max(10080, 'at most 10,080 minutes (7 days)'),
		first_choice: choice.min(1, 'is required'),
		second_choice: choice.min(1, 'is required'),
		third_choice: choice.optional(),
		fourth_choice: choice.optional(),
		media_key: mediaKey.optional(),
	})
	.superRefine((poll, ctx) => {
		if (poll.fourth_choice && !poll.third_choice) {
			ctx.addIssue({ code: 'custom', path: ['fourth_choice'], message: 'needs a third choice' });
		}
	});

const LABELS = {
	name: 'Name',
	duration_in_minutes: 'Duration (Minutes)',
	first_choice: 'First Choice',
	second_choice: 'Second Choice',
	third_choice: 'Third Choice',
	fourth_choice: 'Fourth Choice',
	media_key: 'Media Key',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'At most 80 characters',
	},
	{
		displayName: 'Duration (Minutes)',
		name: 'durationInMinutes',
		type: 'number',
		default: 1440,
		required: true,
		typeOptions: { minValue: 5, maxValue: 10080 },
		description:
			'How long the poll stays open, counted from card creation: 5 to 10,080 minutes (7 days)',
	},
	{
		displayName: 'First Choice',
		name: 'firstChoice',
		type: 'string',
		default: '',
		required: true,
		description: 'At most 25 characters',
	},
	{
		displayName: 'Second Choice',
		name: 'secondChoice',
		type: 'string',
		default: '',
		required: true,
		description: 'At most 25 characters',
	},
	{
		displayName: 'Third Choice',
		name: 'thirdChoice',
		type: 'string',
		default: '',
		description: 'Optional, at most 25 characters',
	},
	{
		displayName: 'Fourth Choice',
		name: 'fourthChoice',
		type: 'string',
		default: '',
		description: 'Optional, only with a third choice',
	},
	mediaSourceProperty('mediaSource'),
	{
		displayName: 'Media Key',
		name: 'mediaKey',
		type: 'string',
		default: '',
		placeholder: '3_1234567890',
		displayOptions: { show: { mediaSource: ['mediaKey'] } },
		description:
			'Optional image (at least 800 px wide, 1.91:1) or video of the media library; polls with media need the PROMOTED_MEDIA_POLLS account feature',
	},
	{
		displayName: 'Input Binary Field',
		name: 'mediaBinaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		displayOptions: { show: { mediaSource: ['binary'] } },
		description:
			"The input binary field holding the image (at least 800 px wide, 1.91:1) or video: uploaded, added to the account's media library, and shown with the poll. Needs the PROMOTED_MEDIA_POLLS account feature.",
	},
];

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create a poll card (it cannot be edited afterwards)',
		action: 'Create a poll card',
	},
	properties,
	options: [maxProcessingWaitOption],
	async execute(ctx: OperationContext, itemIndex: number) {
		const fromBinary = ctx.getNodeParameter('mediaSource', itemIndex, 'mediaKey') === 'binary';
		const text = (name: string) =>
			(ctx.getNodeParameter(name, itemIndex, '') as string) || undefined;
		const input = compact({
			name: text('name') ?? '',
			duration_in_minutes: ctx.getNodeParameter('durationInMinutes', itemIndex, 1440) as number,
			first_choice: text('firstChoice') ?? '',
			second_choice: text('secondChoice') ?? '',
			third_choice: text('thirdChoice'),
			fourth_choice: text('fourthChoice'),
			media_key: fromBinary ? undefined : text('mediaKey')?.trim(),
		});
		const qs = validateInput(ctx.getNode(), pollCardSchema, input, itemIndex, LABELS);
		if (fromBinary) {
			const property = String(
				ctx.getNodeParameter('mediaBinaryPropertyName', itemIndex, 'data') ?? '',
			);
			accountPath(ctx, itemIndex, '');
			qs.media_key = await libraryKeyFromBinary(ctx, itemIndex, property, 'Input Binary Field', [
				'image',
				'video',
			]);
		}
		return single(
			await ctx.request({
				method: 'POST',
				path: accountPath(ctx, itemIndex, '/cards/poll'),
				qs,
			}),
		);
	},
};
