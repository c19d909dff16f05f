import type { IDataObject } from 'n8n-workflow';
import { unwrapData } from '../../../shared/transport';
import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { catalogIdOf, catalogLocator, catalogPath } from '../../common';

const schema = z.object({
	name: z.string().trim().min(1, 'must not be empty').max(255, 'is too long'),
});

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description: 'Rename a product catalog',
		action: 'Update a catalog',
	},
	properties: [
		catalogLocator(),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			description: 'The new name of the catalog',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const catalogId = catalogIdOf(ctx, itemIndex);
		const { name } = validateInput(
			ctx.getNode(),
			schema,
			{ name: ctx.getNodeParameter('name', itemIndex, '') },
			itemIndex,
			{
				name: 'Name',
			},
		);
		const body = await ctx.request({
			method: 'PUT',
			path: catalogPath(catalogId),
			qs: { name },
		});
		return unwrapData<IDataObject>(body);
	},
};
