import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { UNSAFE_FAILURE_HINT, unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { LIST_LABELS, listDescription, listName } from './schema';

const createSchema = z
	.object({ name: listName, description: listDescription.optional(), private: z.boolean() })
	.strict();

export const create: ItemOperation = {
	option: {
		name: 'Create',
		value: 'create',
		description: 'Create a list owned by the authenticated user',
		action: 'Create a list',
	},
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'Automation news',
			description: "The list's name, 1-25 characters",
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			typeOptions: { rows: 2 },
			description: 'What the list is about, at most 100 characters',
		},
		{
			displayName: 'Private',
			name: 'private',
			type: 'boolean',
			default: false,
			description: 'Whether only the owner can see the list',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const description = String(ctx.getNodeParameter('description', itemIndex, '') ?? '');
		const input = validateInput(
			ctx.getNode(),
			createSchema,
			{
				name: String(ctx.getNodeParameter('name', itemIndex, '') ?? ''),
				// An empty description is not sent: the list gets none.
				description: description === '' ? undefined : description,
				private: Boolean(ctx.getNodeParameter('private', itemIndex, false)),
			},
			itemIndex,
			LIST_LABELS,
		);
		const body: IDataObject = { name: input.name, private: input.private };
		if (input.description !== undefined) body.description = input.description;
		const answer = await ctx.request({
			method: 'POST',
			path: '/2/lists',
			body,
			action: 'create the list',
			unsafeFailureHint: UNSAFE_FAILURE_HINT,
		});
		return { ...(unwrapData<IDataObject>(answer) ?? {}), private: input.private };
	},
};
