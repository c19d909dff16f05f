import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { userLocator, userRefParameter } from '../../../shared/locators';
import { userFieldsProperty } from '../../fields';

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a user by username, ID or profile URL',
		action: 'Get one user',
	},
	properties: [userLocator('user'), userFieldsProperty],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const ref = userRefParameter(ctx, 'user', itemIndex);
		const fields = ctx.getNodeParameter('userFields', itemIndex, []) as string[];
		const path =
			ref.by === 'id'
				? `/2/users/${ref.value}`
				: `/2/users/by/username/${encodeURIComponent(ref.value)}`;
		const body = await ctx.request({
			method: 'GET',
			path,
			qs: fields.length ? { 'user.fields': fields.join(',') } : undefined,
		});
		return unwrapData<IDataObject>(body);
	},
};
