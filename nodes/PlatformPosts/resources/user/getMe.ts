import type { IDataObject } from 'n8n-workflow';

import { USER_CONTEXT } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';

export const getMe: ItemOperation = {
	option: {
		name: 'Get Me',
		value: 'getMe',
		description: 'Get the authenticated user',
		action: 'Get the authenticated user',
	},
	properties: [
		{
			displayName: 'User Fields',
			name: 'userFields',
			type: 'multiOptions',
			options: [
				{ name: 'Created At', value: 'created_at' },
				{ name: 'Description', value: 'description' },
				{ name: 'Location', value: 'location' },
				{ name: 'Profile Image URL', value: 'profile_image_url' },
				{ name: 'Public Metrics', value: 'public_metrics' },
				{ name: 'Verified', value: 'verified' },
			],
			default: [],
			description: 'Extra user fields to return besides ID, name and username',
		},
	],
	authentication: USER_CONTEXT,
	async execute(ctx: OperationContext, itemIndex: number) {
		const fields = ctx.getNodeParameter('userFields', itemIndex, []) as string[];
		const body = await ctx.request({
			method: 'GET',
			path: '/2/users/me',
			qs: fields.length ? { 'user.fields': fields.join(',') } : undefined,
		});
		return unwrapData<IDataObject>(body);
	},
};
