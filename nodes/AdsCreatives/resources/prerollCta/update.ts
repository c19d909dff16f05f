import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { KINDS, objectLocator } from '../../kinds';
import { updateFromFields } from '../../operations';
import { LABELS, callToActionProperty, ctaFields, urlProperty } from './schema';

const schema = z
	.object({
		call_to_action: ctaFields.call_to_action,
		call_to_action_url: ctaFields.call_to_action_url,
	})
	.partial()
	.strict()
	.refine((v) => Object.keys(v).length > 0, 'nothing to update: add a field');

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change the call-to-action or its URL',
		action: 'Update a preroll call-to-action',
	},
	properties: [
		objectLocator(KINDS.prerollCta),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [callToActionProperty, urlProperty],
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		return await updateFromFields(ctx, itemIndex, KINDS.prerollCta, schema, LABELS);
	},
};
