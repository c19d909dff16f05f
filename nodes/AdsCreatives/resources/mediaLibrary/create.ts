import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import { maxProcessingWaitOption } from '../../../shared/media';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, compact, single } from '../../common';
import { mediaKey } from '../../shared/fields';
import { addToLibrary, mediaSourceProperty, readMediaBinary } from '../../shared/media';
import { LABELS, fieldOptions, libraryFields } from './schema';

const show = showFor('mediaLibrary', 'create');
const schema = libraryFields.extend({ media_key: mediaKey });

export const create: ItemOperation = {
	option: {
		name: 'Add',
		value: 'create',
		description: 'Add media to the media library: upload a binary file and add it in one step, or add an uploaded media key',
		action: 'Add media to the media library',
	},
	properties: [
		mediaSourceProperty('source', show),
		{
			displayName: 'Media Key',
			name: 'mediaKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3_1151345051455284224',
			displayOptions: showFor('mediaLibrary', 'create', { source: ['mediaKey'] }),
			description: 'The media_key of an upload made with a media category (Platform Posts → Media → Upload, Purpose "Ad Video or Ad Image")',
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: showFor('mediaLibrary', 'create', { source: ['binary'] }),
			description: 'The input binary field holding the image, GIF or video. Videos are uploaded as ad videos (amplify_video), which also makes them preroll account media.',
		},
		{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: show, options: fieldOptions },
		optionsCollection('mediaLibrary', 'create', [maxProcessingWaitOption]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		if (this.getNodeParameter('source', itemIndex, 'mediaKey') === 'binary') {
			const qs = validateInput(this.getNode(), libraryFields, compact({ ...fields }), itemIndex, LABELS);
			const property = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') ?? '');
			const pending = await readMediaBinary(this, itemIndex, property, 'Input Binary Field', ['image', 'gif', 'video']);
			return (await addToLibrary(this, itemIndex, pending, qs)).library;
		}
		const input = compact({ ...fields, media_key: String(this.getNodeParameter('mediaKey', itemIndex, '')).trim() });
		const qs = validateInput(this.getNode(), schema, input, itemIndex, LABELS);
		return single(await adsRequest(this, itemIndex, { method: 'POST', path: accountPath(this, itemIndex, '/media_library'), qs }));
	},
};
