import { USER_CONTEXT } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { testModeProperty } from './common';

const OP = 'getEligiblePosts';

export const getEligiblePosts: ItemOperation = {
	option: {
		name: 'Get Eligible Posts',
		value: OP,
		description:
			'List posts on which the authenticated note writer may write a community note. Needs a user-context credential of an account enrolled as a note writer.',
		action: 'Get posts eligible for community notes',
	},
	properties: [testModeProperty, returnAllProperty(), limitProperty(1000)],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		return await ctx.paginate(
			{
				method: 'GET',
				path: '/2/notes/search/posts_eligible_for_notes',
				qs: { test_mode: ctx.getNodeParameter('testMode', itemIndex, true) as boolean },
			},
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
			},
		);
	},
};
