import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { KINDS, accountPath, adsRequest, compact, objectId, objectLocator, single } from '../../common';
import { LABELS, fieldOptions, libraryFields } from './schema';

const schema = libraryFields.refine((v) => Object.keys(v).length > 0, 'nothing to update: add a field');

export const update: ItemOperation = {
	option: { name: 'Update', value: 'update', description: 'Rename or describe a media library object', action: 'Update a media library object' },
	properties: [
		objectLocator(KINDS.mediaLibrary, ['update']),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: showFor('mediaLibrary', 'update'),
			options: fieldOptions,
		},
		optionsCollection('mediaLibrary', 'update'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const key = objectId(this, itemIndex, KINDS.mediaLibrary);
		const qs = validateInput(this.getNode(), schema, compact(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject), itemIndex, LABELS);
		return single(await adsRequest(this, itemIndex, { method: 'PUT', path: accountPath(this, itemIndex, `/media_library/${key}`), qs }));
	},
};
