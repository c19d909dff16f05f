import { z } from 'zod';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { pagingProperties, readPages, userListProperties, userListQuery } from '../../reads';

/** The service takes 1-50 letters, digits, spaces, _ and '. */
const schema = z
	.string()
	.trim()
	.min(1, 'is required')
	.max(50, 'at most 50 characters')
	.regex(/^[A-Za-z0-9_' ]+$/, "only letters, digits, spaces, _ and ' are allowed");

export const search: ItemOperation = {
	option: {
		name: 'Search',
		value: 'search',
		description:
			'Find users by name or username. Needs a user-context credential. Charged per result: keep a limit.',
		action: 'Search users',
	},
	properties: [
		{
			displayName: 'Query',
			name: 'query',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'n8n',
			description: "What to look for in names and usernames (1-50 letters, digits, spaces, _ or ')",
		},
		...pagingProperties(100000),
		...userListProperties,
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const query = validateInput(
			ctx.getNode(),
			schema,
			ctx.getNodeParameter('query', itemIndex, ''),
			itemIndex,
			{ '': 'Query' },
		);
		return await readPages(
			ctx,
			itemIndex,
			{ method: 'GET', path: '/2/users/search', qs: { query, ...userListQuery(ctx, itemIndex) } },
			{ min: 1, max: 1000, tokenParam: 'next_token' },
			'users',
		);
	},
};
