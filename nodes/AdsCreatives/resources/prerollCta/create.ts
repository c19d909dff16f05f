import { z } from 'zod';
import { single } from '../../../shared/ads';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { LABELS, callToActionProperty, ctaFields, urlProperty } from './schema';

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Set the call-to-action of a PREROLL_VIEWS line item',
		action: 'Create a preroll call-to-action',
	},
	properties: [
		{
			displayName: 'Line Item ID',
			name: 'lineItemId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '8v7jo',
		},
		{ ...callToActionProperty, required: true },
		{ ...urlProperty, required: true },
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const input = {
			line_item_id: String(ctx.getNodeParameter('lineItemId', itemIndex, '')).trim(),
			call_to_action: ctx.getNodeParameter('call_to_action', itemIndex, ''),
			call_to_action_url: String(ctx.getNodeParameter('call_to_action_url', itemIndex, '')).trim(),
		};
		const qs = validateInput(ctx.getNode(), z.object(ctaFields), input, itemIndex, LABELS);
		return single(
			await ctx.request({
				method: 'POST',
				path: accountPath(ctx, itemIndex, '/preroll_call_to_actions'),
				qs,
			}),
		);
	},
};
