import { z } from 'zod';

import { APP_OR_OAUTH2 } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { mergeSpaceIncludes, spaceFieldProperties, spaceFieldQuery } from './fields';

const STATES = ['all', 'live', 'scheduled'] as const;

const schema = z.object({
	query: z.string().min(1, 'is required').max(2048, 'at most 2,048 characters'),
	state: z.enum(STATES),
	limit: z.number().int().min(1, 'at least 1').max(100, 'at most 100'),
});

export const search: ItemOperation = {
	option: {
		name: 'Search',
		value: 'search',
		description: 'Search live and scheduled Spaces by their title',
		action: 'Search spaces',
	},
	properties: [
		{
			displayName: 'Query',
			name: 'query',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'automation',
			description: 'Words in the Space title (1 to 2,048 characters)',
		},
		{
			displayName: 'State',
			name: 'state',
			type: 'options',
			default: 'all',
			options: [
				{ name: 'All', value: 'all', description: 'Live and scheduled Spaces' },
				{ name: 'Live', value: 'live', description: 'Spaces happening now' },
				{ name: 'Scheduled', value: 'scheduled', description: 'Spaces that have not started yet' },
			],
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: 100 },
			description: 'Max number of results to return',
		},
		...spaceFieldProperties,
	],
	authentication: APP_OR_OAUTH2,
	async execute(ctx: OperationContext, itemIndex: number) {
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				query: String(ctx.getNodeParameter('query', itemIndex, '')).trim(),
				state: ctx.getNodeParameter('state', itemIndex, 'all'),
				limit: Number(ctx.getNodeParameter('limit', itemIndex, 50)),
			},
			itemIndex,
			{ query: 'Query', state: 'State', limit: 'Limit' },
		);
		const body = await ctx.request({
			method: 'GET',
			path: '/2/spaces/search',
			qs: {
				query: input.query,
				state: input.state,
				max_results: input.limit,
				...spaceFieldQuery(ctx, itemIndex),
			},
		});
		return mergeSpaceIncludes(body).slice(0, input.limit);
	},
};
