import type { IDataObject } from 'n8n-workflow';
import { deletedResult } from '../../../shared/router';

import { postLocator, postIdParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { requireUserContext } from '../../common';

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
	async execute(ctx: OperationContext, itemIndex: number) {
		requireUserContext(ctx, itemIndex, 'Deleting a post');
		const id = postIdParameter(ctx, 'postId', itemIndex);
		const body = await ctx.request({
			method: 'DELETE',
			path: `/2/tweets/${id}`,
		});
		return deletedResult(id, unwrapData<IDataObject>(body));
	},
};
