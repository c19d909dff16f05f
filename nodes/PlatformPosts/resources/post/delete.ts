import type { IDataObject } from 'n8n-workflow';
import { USER_CONTEXT } from '../../../shared/authentication';
import { deletedResult } from '../../../shared/router';

import { postLocator, postIdParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';

export const deletePost: ItemOperation = {
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Delete a post of the authenticated user',
		action: 'Delete a post',
	},
	properties: [
		{
			...postLocator('postId', 'Post'),
			description: 'The post to delete, by its ID or by its URL',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = postIdParameter(ctx, 'postId', itemIndex);
		const body = await ctx.request({
			method: 'DELETE',
			path: `/2/tweets/${id}`,
		});
		return deletedResult(id, unwrapData<IDataObject>(body));
	},
};
