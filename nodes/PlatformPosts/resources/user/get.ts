import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest } from '../../common';
import type { UserRef } from '../../../shared/locators';
import { userLocator, userRefFromValue } from '../../../shared/locators';
import { USER_FIELDS } from '../post/fields';

const show = showFor('user', 'get');

export type { UserRef } from '../../../shared/locators';
export { PROFILE_URL_REGEX, userLocator, userRefFrom } from '../../../shared/locators';

/** Reads a user locator (a plain string is taken as an ID when all digits, else as a username). */
export function userRefParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): UserRef {
	return userRefFromValue(ctx.getNode(), ctx.getNodeParameter(name, itemIndex), itemIndex);
}

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a user by username, ID or profile URL',
		action: 'Get one user',
	},
	properties: [
		userLocator('user', show),
		{
			displayName: 'User Fields',
			name: 'userFields',
			type: 'multiOptions',
			displayOptions: show,
			options: USER_FIELDS.map((value) => ({ name: value, value })),
			default: [],
			description: 'Extra user fields to return besides ID, name and username',
		},
		optionsCollection('user', 'get'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const ref = userRefParameter(this, 'user', itemIndex);
		const fields = this.getNodeParameter('userFields', itemIndex, []) as string[];
		const path =
			ref.by === 'id' ? `/2/users/${ref.value}` : `/2/users/by/username/${encodeURIComponent(ref.value)}`;
		const body = await postsRequest.call(this, itemIndex, {
			method: 'GET',
			path,
			qs: fields.length ? { 'user.fields': fields.join(',') } : undefined,
		});
		return unwrapData<IDataObject>(body);
	},
};
