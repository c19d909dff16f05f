import { ANY_KIND } from '../../../shared/authentication';
import { userLocator, userRefParameter } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { pagingProperties, readPages, userListProperties, userListQuery } from '../../reads';
import { resolveUserId } from '../../users';

export const getAffiliates: ItemOperation = {
	option: {
		name: 'Get Affiliates',
		value: 'getAffiliates',
		description:
			"List the accounts affiliated with a user (e.g. an organisation's affiliated accounts)",
		action: "Get a user's affiliates",
	},
	properties: [
		{
			...userLocator('user'),
			description: 'The user whose affiliates to list, by username, ID or profile URL',
		},
		...pagingProperties(100000),
		...userListProperties,
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = await resolveUserId.call(ctx, itemIndex, userRefParameter(ctx, 'user', itemIndex));
		return await readPages(
			ctx,
			itemIndex,
			{ method: 'GET', path: `/2/users/${id}/affiliates`, qs: userListQuery(ctx, itemIndex) },
			{ min: 1, max: 1000 },
			'users',
		);
	},
};
