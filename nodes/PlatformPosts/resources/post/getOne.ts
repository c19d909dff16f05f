import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import { postIdParameter, postLocator } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { fieldProperties, fieldQuery, mergeIncludes, partialErrors } from '../../fields';

/**
 * One post by its id or URL (GET /2/tweets/:id), picked with a locator like the other operations on
 * one post. Get keeps its list of ids and its own request (GET /2/tweets?ids=).
 */
export const getOne: ItemOperation = {
	option: {
		name: 'Get One',
		value: 'getOne',
		description: 'Look up one post by its ID or URL',
		action: 'Get one post',
	},
	properties: [postLocator('postId', 'Post'), ...fieldProperties],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = postIdParameter(ctx, 'postId', itemIndex);
		const body = await ctx.request<IDataObject>({
			method: 'GET',
			path: `/2/tweets/${id}`,
			qs: fieldQuery(ctx, itemIndex),
		});
		if (ctx.getNodeParameter('output', itemIndex, 'merged') === 'raw') return body;
		return [...mergeIncludes(body), ...partialErrors(body)];
	},
};
