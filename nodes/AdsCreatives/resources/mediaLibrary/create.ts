import type { IDataObject } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import { maxProcessingWaitOption } from '../../../shared/media';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { compact, mediaKey } from '../../shared/fields';
import { addToLibrary, mediaSourceProperty, readMediaBinary } from '../../shared/media';
import { LABELS, fieldOptions, libraryFields } from './schema';

const schema = libraryFields.extend({ media_key: mediaKey });

export const create: ItemOperation = {
	option: {
		name: 'Add',
		value: 'create',
		description:
			'Add media to the media library: upload a binary file and add it in one step, or add an uploaded media key',
		action: 'Add media to the media library',
	},
	properties: [
		mediaSourceProperty('source'),
		{
			displayName: 'Media Key',
			name: 'mediaKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3_1151345051455284224',
			displayOptions: { show: { source: ['mediaKey'] } },
			description:
				'The media_key of an upload made with a media category (Platform Posts → Media → Upload, Purpose "Ad Video or Ad Image")',
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { source: ['binary'] } },
			description:
				'The input binary field holding the image, GIF or video. Videos are uploaded as ad videos (amplify_video), which also makes them preroll account media.',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: fieldOptions,
		},
	],
	options: [maxProcessingWaitOption],
	async execute(ctx: OperationContext, itemIndex: number) {
		const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		if (ctx.getNodeParameter('source', itemIndex, 'mediaKey') === 'binary') {
			const qs = validateInput(
				ctx.getNode(),
				libraryFields,
				compact({ ...fields }),
				itemIndex,
				LABELS,
			);
			const property = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '');
			const pending = await readMediaBinary(ctx, itemIndex, property, 'Input Binary Field', [
				'image',
				'gif',
				'video',
			]);
			return (await addToLibrary(ctx, itemIndex, pending, qs)).library;
		}
		const input = compact({
			...fields,
			media_key: String(ctx.getNodeParameter('mediaKey', itemIndex, '')).trim(),
		});
		const qs = validateInput(ctx.getNode(), schema, input, itemIndex, LABELS);
		return single(
			await ctx.request({
				method: 'POST',
				path: accountPath(ctx, itemIndex, '/media_library'),
				qs,
			}),
		);
	},
};
