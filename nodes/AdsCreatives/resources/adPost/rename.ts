import { NodeOperationError } from 'n8n-workflow';
import { single } from '../../../shared/ads';

import { postLocator, postIdParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { accountPath } from '../../account';

export const rename: ItemOperation = {
	option: {
		name: 'Rename',
		value: 'rename',
		description: 'Set the name of a post of the ad account',
		action: 'Rename a post of the ad account',
	},
	properties: [
		postLocator('postId', 'Post'),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'At most 80 characters; empty clears the name',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = postIdParameter(ctx, 'postId', itemIndex);
		const name = ctx.getNodeParameter('name', itemIndex, '') as string;
		if (name.length > 80) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Name: at most 80 characters (got ${name.length})`,
				{ itemIndex },
			);
		}
		return single(
			await ctx.request({
				method: 'PUT',
				path: accountPath(ctx, itemIndex, `/tweets/${id}/name`),
				qs: { name },
			}),
		);
	},
};
