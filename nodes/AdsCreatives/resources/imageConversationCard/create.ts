import type { IDataObject } from 'n8n-workflow';

import { single } from '../../../shared/ads';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { accountPath } from '../../account';
import { compact } from '../../shared/fields';
import { ALL_FIELDS, LABELS, REQUIRED_ON_CREATE, createSchema, fieldProperty } from './schema';

const TOP_LEVEL = [...REQUIRED_ON_CREATE, 'title'];

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create an image conversation card (hashtag CTAs that publish a post)',
		action: 'Create an image conversation card',
	},
	properties: [
		...TOP_LEVEL.map((f) => fieldProperty(f, { required: REQUIRED_ON_CREATE.includes(f) })),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: ALL_FIELDS.filter((f) => !TOP_LEVEL.includes(f))
				.map((f) => fieldProperty(f))
				.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const input: IDataObject = {
			...(ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
		};
		for (const f of TOP_LEVEL) input[f] = ctx.getNodeParameter(f, itemIndex, '');
		const qs = validateInput(ctx.getNode(), createSchema, compact(input), itemIndex, LABELS);
		const path = accountPath(ctx, itemIndex, '/cards/image_conversation');
		return single(await ctx.request({ method: 'POST', path, qs }));
	},
};
