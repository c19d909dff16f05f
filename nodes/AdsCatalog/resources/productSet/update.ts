import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { catalogIdOf, catalogPath, productSetIdOf, productSetLocator } from '../../common';
import { productKeysFrom } from './common';

const updateSchema = z
	.object({
		name: z.string().trim().min(1, 'must not be empty').optional(),
		description: z.string().optional(),
		product_keys: z
			.array(z.string())
			.min(
				1,
				'is empty: a MANUAL set needs at least one product key (delete the set to remove all products)',
			)
			.optional(),
	})
	.refine(
		(fields) => Object.values(fields).some((value) => value !== undefined),
		'nothing to update: add a field to Update Fields (name, description or product keys)',
	);

const LABELS = { name: 'Name', description: 'Description', product_keys: 'Product Keys' };

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description:
			'Change the name, description or products of a MANUAL product set (FILTERED sets cannot be updated)',
		action: 'Update a product set',
	},
	notice: {
		displayName:
			'Only MANUAL sets can be updated: the service does not support updating FILTERED sets',
		name: 'updateNotice',
		type: 'notice',
		default: '',
	},
	properties: [
		productSetLocator(),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{ displayName: 'Description', name: 'description', type: 'string', default: '' },
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{
					displayName: 'Product Keys',
					name: 'productKeys',
					type: 'string',
					default: '',
					description:
						'The complete new list of product keys, separated by commas or new lines (replaces the current list)',
				},
			],
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const catalogId = catalogIdOf(ctx, itemIndex);
		const setId = productSetIdOf(ctx, itemIndex);
		const fields = (ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject) ?? {};
		const body = validateInput(
			ctx.getNode(),
			updateSchema,
			{
				name: fields.name === undefined ? undefined : String(fields.name),
				description: fields.description === undefined ? undefined : String(fields.description),
				product_keys:
					fields.productKeys === undefined ? undefined : productKeysFrom(fields.productKeys),
			},
			itemIndex,
			LABELS,
		);
		const path = catalogPath(catalogId, `/product_sets/${encodeURIComponent(setId)}`);
		const current = unwrapData<IDataObject>(await ctx.request({ method: 'GET', path }));
		if (current?.type === 'FILTERED') {
			throw new NodeOperationError(
				ctx.getNode(),
				`Product set ${setId} is a FILTERED set: the service cannot update FILTERED sets`,
				{
					itemIndex,
					description:
						'Only MANUAL sets can be changed. To change a FILTERED set, create a new set with the new filters (Product Set > Create) and delete this one.',
				},
			);
		}
		return unwrapData<IDataObject>(await ctx.request({ method: 'PUT', path, body }));
	},
};
