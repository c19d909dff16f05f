import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import { listLocator } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { listIdParameter } from './common';
import { LIST_LABELS, listDescription, listName } from './schema';

const updateSchema = z
	.object({
		name: listName.optional(),
		description: listDescription.optional(),
		private: z.boolean().optional(),
	})
	.strict();

export const update: ItemOperation = {
	option: {
		name: 'Update',
		value: 'update',
		description:
			"Change the name, description or visibility of a list the authenticated user owns. Empty fields keep the list's value.",
		action: 'Update a list',
	},
	properties: [
		listLocator('The list to change (one the authenticated user owns)'),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'The new name, 1-25 characters. Leave empty to keep the name.',
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description: 'The new description, at most 100 characters. Leave empty to keep it.',
		},
		{
			displayName: 'Visibility',
			name: 'visibility',
			type: 'options',
			default: 'keep',
			options: [
				{ name: 'Keep', value: 'keep', description: 'Leave the visibility as it is' },
				{ name: 'Public', value: 'public', description: 'Anyone can see the list' },
				{ name: 'Private', value: 'private', description: 'Only the owner can see the list' },
			],
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = listIdParameter(ctx, itemIndex);
		const name = String(ctx.getNodeParameter('name', itemIndex, '') ?? '');
		const description = String(ctx.getNodeParameter('description', itemIndex, '') ?? '');
		const visibility = ctx.getNodeParameter('visibility', itemIndex, 'keep') as string;
		const input = validateInput(
			ctx.getNode(),
			updateSchema,
			{
				name: name === '' ? undefined : name,
				description: description === '' ? undefined : description,
				private: visibility === 'keep' ? undefined : visibility === 'private',
			},
			itemIndex,
			LIST_LABELS,
		);
		const body = Object.fromEntries(
			Object.entries(input).filter(([, v]) => v !== undefined),
		) as IDataObject;
		if (!Object.keys(body).length)
			throw new NodeOperationError(
				ctx.getNode(),
				`Nothing to update in item ${itemIndex + 1}: set Name, Description or Visibility`,
				{ itemIndex },
			);
		const answer = await ctx.request({ method: 'PUT', path: `/2/lists/${id}`, body });
		return { id, ...(unwrapData<IDataObject>(answer) ?? {}), ...body };
	},
};
