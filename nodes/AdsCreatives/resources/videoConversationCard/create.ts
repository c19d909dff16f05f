import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { compact } from '../../shared/fields';
import { maxProcessingWaitOption } from '../../../shared/media';
import { mediaSourceProperty } from '../../shared/media';
import { binaryFieldProperty, takeBinaryFields, uploadCardBinaries } from './media';
import { ALL_FIELDS, LABELS, REQUIRED_ON_CREATE, createSchema, fieldProperty } from './schema';

const TOP_LEVEL = [...REQUIRED_ON_CREATE, 'title'];

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create a video conversation card (hashtag CTAs that publish a post)',
		action: 'Create a video conversation card',
	},
	properties: [
		{ ...mediaSourceProperty('videoSource'), displayName: 'Video Source' },
		...TOP_LEVEL.map((f) =>
			fieldProperty(f, {
				required: REQUIRED_ON_CREATE.includes(f),
				displayOptions: f === 'media_key' ? { show: { videoSource: ['mediaKey'] } } : undefined,
			}),
		),
		binaryFieldProperty('videoBinaryPropertyName', {
			required: true,
			displayOptions: { show: { videoSource: ['binary'] } },
		}),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				...ALL_FIELDS.filter((f) => !TOP_LEVEL.includes(f)).map((f) => fieldProperty(f)),
				binaryFieldProperty('posterBinaryPropertyName'),
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	],
	options: [maxProcessingWaitOption],
	async execute(ctx: OperationContext, itemIndex: number) {
		const input: IDataObject = {
			...(ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
		};
		const fromBinary = ctx.getNodeParameter('videoSource', itemIndex, 'mediaKey') === 'binary';
		for (const f of TOP_LEVEL)
			if (f !== 'media_key' || !fromBinary) input[f] = ctx.getNodeParameter(f, itemIndex, '');
		if (fromBinary)
			input.videoBinaryPropertyName = ctx.getNodeParameter(
				'videoBinaryPropertyName',
				itemIndex,
				'data',
			);
		const binaries = takeBinaryFields(ctx, itemIndex, input);
		const qs = validateInput(ctx.getNode(), createSchema, compact(input), itemIndex, LABELS);
		const path = accountPath(ctx, itemIndex, '/cards/video_conversation');
		const uploaded = binaries.pending.length
			? await uploadCardBinaries(ctx, itemIndex, qs, binaries)
			: undefined;
		const card = single(await ctx.request({ method: 'POST', path, qs }));
		return uploaded ? { ...card, uploaded_media: uploaded } : card;
	},
};
