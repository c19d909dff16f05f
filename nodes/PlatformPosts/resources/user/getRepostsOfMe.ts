import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { fieldProperties, fieldQuery } from '../../fields';
import { pagingProperties, readPages } from '../../reads';

export const getRepostsOfMe: ItemOperation = {
	option: {
		name: 'Get Reposts of Me',
		value: 'getRepostsOfMe',
		description:
			"List reposts of the authenticated user's posts, newest first. Needs a user-context credential (OAuth2 scope timeline.read).",
		action: "Get reposts of the authenticated user's posts",
	},
	properties: [...pagingProperties(100000), ...fieldProperties],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		return await readPages(
			ctx,
			itemIndex,
			{ method: 'GET', path: '/2/users/reposts_of_me', qs: fieldQuery(ctx, itemIndex) },
			{ min: 1, max: 100 },
			'posts',
		);
	},
};
