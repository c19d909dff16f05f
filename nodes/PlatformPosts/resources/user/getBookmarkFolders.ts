import { OAUTH2_USER } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { pagingProperties } from '../../reads';
import { authenticatedUserId } from '../../users';

export const getBookmarkFolders: ItemOperation = {
	option: {
		name: 'Get Bookmark Folders',
		value: 'getBookmarkFolders',
		description:
			"List the authenticated user's bookmark folders (ID and name). Needs the OAuth2 credential (scope bookmark.read).",
		action: "Get the authenticated user's bookmark folders",
	},
	properties: pagingProperties(100000),
	authentication: OAUTH2_USER,
	async execute(ctx: OperationContext, itemIndex: number) {
		const me = await authenticatedUserId.call(ctx, itemIndex);
		return await ctx.paginate(
			{ method: 'GET', path: `/2/users/${me}/bookmarks/folders` },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				minPageSize: 1,
				tokenParam: 'pagination_token',
			},
		);
	},
};
