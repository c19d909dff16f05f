import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, compact, single } from '../../common';
import { mediaKey } from '../../shared/fields';
import { LABELS, fieldOptions, libraryFields } from './schema';

const show = showFor('mediaLibrary', 'create');
const schema = libraryFields.extend({ media_key: mediaKey });

export const create: ItemOperation = {
	option: {
		name: 'Add',
		value: 'create',
		description: 'Add uploaded media to the media library (upload it with a media category first)',
		action: 'Add media to the media library',
	},
	properties: [
		{
			displayName: 'Media Key',
			name: 'mediaKey',
			type: 'string',
			default: '',
			required: true,
			placeholder: '3_1151345051455284224',
			displayOptions: show,
			description: 'The media_key of an upload made with a media category (e.g. Platform Posts → Media → Upload)',
		},
		{ displayName: 'Additional Fields', name: 'additionalFields', type: 'collection', placeholder: 'Add Field', default: {}, displayOptions: show, options: fieldOptions },
		optionsCollection('mediaLibrary', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const input = compact({ ...fields, media_key: String(this.getNodeParameter('mediaKey', itemIndex, '')).trim() });
		const qs = validateInput(this.getNode(), schema, input, itemIndex, LABELS);
		return single(await adsRequest(this, itemIndex, { method: 'POST', path: accountPath(this, itemIndex, '/media_library'), qs }));
	},
};
