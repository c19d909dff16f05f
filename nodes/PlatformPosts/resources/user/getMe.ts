import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest, requireUserContext } from '../../common';

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
			displayOptions: showFor('user', 'getMe'),
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
		optionsCollection('user', 'getMe'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		requireUserContext(this, itemIndex, 'Get Me');
		const fields = this.getNodeParameter('userFields', itemIndex, []) as string[];
		const body = await postsRequest.call(this, itemIndex, {
			method: 'GET',
			path: '/2/users/me',
			qs: fields.length ? { 'user.fields': fields.join(',') } : undefined,
		});
		return unwrapData<IDataObject>(body);
	},
};
