import type { ItemOperation, OperationContext } from '../../../shared/router';
import { KINDS, objectLocator } from '../../kinds';
import { updateFromFields } from '../../operations';
import { LABELS, fieldOptions, libraryFields } from './schema';

const schema = libraryFields.refine(
	(v) => Object.keys(v).length > 0,
	'nothing to update: add a field',
);

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Rename or describe a media library object',
		action: 'Update a media library object',
	},
	properties: [
		objectLocator(KINDS.mediaLibrary),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: fieldOptions,
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		return await updateFromFields(ctx, itemIndex, KINDS.mediaLibrary, schema, LABELS);
	},
};
