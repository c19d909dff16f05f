import { APP_OR_OAUTH2 } from '../../../shared/authentication';
import { locatorValue } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors } from '../../fields';
import {
	mergeSpaceIncludes,
	spaceFieldProperties,
	spaceFieldQuery,
	spaceIdFrom,
	spaceLocator,
} from './fields';

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get one Space by ID or URL',
		action: 'Get a space',
	},
	properties: [spaceLocator, ...spaceFieldProperties],
	authentication: APP_OR_OAUTH2,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = locatorValue(
			ctx.getNode(),
			ctx.getNodeParameter('spaceId', itemIndex),
			'Space',
			itemIndex,
			spaceIdFrom,
		);
		const body = await ctx.request({
			method: 'GET',
			path: `/2/spaces/${id}`,
			qs: spaceFieldQuery(ctx, itemIndex),
		});
		return [...mergeSpaceIncludes(body), ...partialErrors(body)];
	},
};
