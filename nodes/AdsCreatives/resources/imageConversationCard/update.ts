import type { IDataObject } from 'n8n-workflow';

import { KINDS, objectLocator } from '../../kinds';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { updateFromFields } from '../../operations';
import { ALL_FIELDS, LABELS, fieldProperty, updateSchema } from './schema';

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change fields of an image conversation card',
		action: 'Update an image conversation card',
	},
	properties: [
		objectLocator(KINDS.imageConversationCard),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: ALL_FIELDS.map((f) => fieldProperty(f)).sort((a, b) =>
				a.displayName.localeCompare(b.displayName),
			),
		},
	],
	async execute(ctx: OperationContext, itemIndex: number): Promise<IDataObject> {
		return await updateFromFields(
			ctx,
			itemIndex,
			KINDS.imageConversationCard,
			updateSchema,
			LABELS,
		);
	},
};
