import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { KINDS, accountPath, adsRequest, compact, objectId, objectLocator, single } from '../../common';
import { LABELS, callToActionProperty, ctaFields, urlProperty } from './schema';

const schema = z
	.object({ call_to_action: ctaFields.call_to_action, call_to_action_url: ctaFields.call_to_action_url })
	.partial()
	.strict()
	.refine((v) => Object.keys(v).length > 0, 'nothing to update: add a field');

export const update: ItemOperation = {
	option: { name: 'Update', value: 'update', description: 'Change the call-to-action or its URL', action: 'Update a preroll call-to-action' },
	properties: [
		objectLocator(KINDS.prerollCta, ['update']),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: showFor('prerollCta', 'update'),
			options: [callToActionProperty, urlProperty],
		},
		optionsCollection('prerollCta', 'update'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = objectId(this, itemIndex, KINDS.prerollCta);
		const qs = validateInput(this.getNode(), schema, compact(this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject), itemIndex, LABELS);
		return single(await adsRequest(this, itemIndex, { method: 'PUT', path: accountPath(this, itemIndex, `/preroll_call_to_actions/${id}`), qs }));
	},
};
