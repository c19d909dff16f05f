import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { communityFieldsProperty, communityFieldsQuery } from './fields';

const schema = z.object({
	query: z.string().min(1, 'is required').max(4096, 'at most 4,096 characters'),
});

export const search: ItemOperation = {
	option: {
		name: 'Search',
		value: 'search',
		description: 'Search Communities by name',
		action: 'Search communities',
	},
	properties: [
		{
			displayName: 'Query',
			name: 'query',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'automation',
			description: 'Words in the Community name (1 to 4,096 characters)',
		},
		returnAllProperty(),
		limitProperty(),
		communityFieldsProperty,
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const input = validateInput(
			ctx.getNode(),
			schema,
			{ query: String(ctx.getNodeParameter('query', itemIndex, '')).trim() },
			itemIndex,
			{ query: 'Query' },
		);
		return await ctx.paginate(
			{
				method: 'GET',
				path: '/2/communities/search',
				qs: { query: input.query, ...communityFieldsQuery(ctx, itemIndex) },
			},
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: Number(ctx.getNodeParameter('limit', itemIndex, 50)),
				pageSizeParam: 'max_results',
				// The service takes 10 to 100 per page: a smaller limit still asks for 10.
				maxPageSize: 100,
				minPageSize: 10,
				tokenParam: 'next_token',
			},
		);
	},
};
