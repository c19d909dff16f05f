import { z } from 'zod';

import { APP_OR_OAUTH2 } from '../../../shared/authentication';
import { locatorValue } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { fieldProperties, fieldQuery, mergeIncludes, partialErrors } from '../../fields';
import { spaceIdFrom, spaceLocator } from './fields';

const schema = z.object({
	limit: z.number().int().min(1, 'at least 1').max(100, 'at most 100'),
});

export const getPosts: ItemOperation = {
	option: {
		name: 'Get Posts',
		value: 'getPosts',
		description: 'Get the posts shared in a Space',
		action: 'Get posts of a space',
	},
	properties: [
		spaceLocator,
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: 100 },
			description: 'Max number of results to return',
		},
		...fieldProperties,
	],
	authentication: APP_OR_OAUTH2,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = locatorValue(
			ctx.getNode(),
			ctx.getNodeParameter('spaceId', itemIndex),
			'Space',
			itemIndex,
			spaceIdFrom,
		);
		const input = validateInput(
			ctx.getNode(),
			schema,
			{ limit: Number(ctx.getNodeParameter('limit', itemIndex, 50)) },
			itemIndex,
			{ limit: 'Limit' },
		);
		const body = await ctx.request({
			method: 'GET',
			path: `/2/spaces/${id}/tweets`,
			qs: { max_results: input.limit, ...fieldQuery(ctx, itemIndex) },
		});
		if (ctx.getNodeParameter('output', itemIndex, 'merged') === 'raw') return body;
		return [...mergeIncludes(body).slice(0, input.limit), ...partialErrors(body)];
	},
};
