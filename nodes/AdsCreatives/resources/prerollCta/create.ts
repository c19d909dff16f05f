import type { IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { optionsCollection } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath, adsRequest, single } from '../../common';
import { LABELS, callToActionProperty, ctaFields, urlProperty } from './schema';

const show = showFor('prerollCta', 'create');

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Set the call-to-action of a PREROLL_VIEWS line item',
		action: 'Create a preroll call-to-action',
	},
	properties: [
		{ displayName: 'Line Item ID', name: 'lineItemId', type: 'string', default: '', required: true, placeholder: '8v7jo', displayOptions: show },
		{ ...callToActionProperty, required: true, displayOptions: show },
		{ ...urlProperty, required: true, displayOptions: show },
		optionsCollection('prerollCta', 'create'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const input = {
			line_item_id: String(this.getNodeParameter('lineItemId', itemIndex, '')).trim(),
			call_to_action: this.getNodeParameter('call_to_action', itemIndex, ''),
			call_to_action_url: String(this.getNodeParameter('call_to_action_url', itemIndex, '')).trim(),
		};
		const qs = validateInput(this.getNode(), z.object(ctaFields), input, itemIndex, LABELS);
		return single(await adsRequest(this, itemIndex, { method: 'POST', path: accountPath(this, itemIndex, '/preroll_call_to_actions'), qs }));
	},
};
