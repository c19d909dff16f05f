import type { IDataObject, IExecuteFunctions, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest } from '../../common';
import { USER_FIELDS } from '../post/fields';

const show = showFor('user', 'get');

const USERNAME = /^@?([A-Za-z0-9_]{1,15})$/;
export const PROFILE_URL_REGEX = '^https?://[^/\\s]+/@?([A-Za-z0-9_]{1,15})/?(?:[?#].*)?$';
const RESERVED_PATHS = new Set(['home', 'i', 'search', 'explore', 'notifications', 'messages', 'settings', 'intent']);

export type UserRef = { by: 'id' | 'username'; value: string };

/** A user from an ID, an @username or a profile URL. */
export function userRefFrom(mode: string, raw: string): UserRef | undefined {
	const value = raw.trim();
	if (mode === 'id') return /^\d{1,19}$/.test(value) ? { by: 'id', value } : undefined;
	if (mode === 'url') {
		const match = value.match(new RegExp(PROFILE_URL_REGEX, 'i'));
		if (!match || RESERVED_PATHS.has(match[1].toLowerCase())) return undefined;
		return { by: 'username', value: match[1] };
	}
	const match = value.match(USERNAME);
	return match ? { by: 'username', value: match[1] } : undefined;
}

/** A resource locator for a user: by username, by ID or by profile URL. */
export function userLocator(name: string, displayOptions: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'User',
		name,
		type: 'resourceLocator',
		default: { mode: 'username', value: '' },
		required: true,
		displayOptions,
		description: 'The user, by username, by ID or by profile URL',
		modes: [
			{
				displayName: 'By Username',
				name: 'username',
				type: 'string',
				placeholder: 'n8n_io',
				validation: [
					{ type: 'regex', properties: { regex: '^@?[A-Za-z0-9_]{1,15}$', errorMessage: 'A username is 1-15 letters, digits or _' } },
				],
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: '2244994945',
				validation: [{ type: 'regex', properties: { regex: '^\\d{1,19}$', errorMessage: 'A user ID is 1-19 digits' } }],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'https://x.com/n8n_io',
				validation: [{ type: 'regex', properties: { regex: PROFILE_URL_REGEX, errorMessage: 'Not a profile URL' } }],
			},
		],
	};
}

/** Reads a user locator (a plain string is taken as an ID when all digits, else as a username). */
export function userRefParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): UserRef {
	const raw = ctx.getNodeParameter(name, itemIndex) as INodeParameterResourceLocator | string;
	const locator = typeof raw === 'object' && raw !== null ? raw : undefined;
	const value = String(locator ? (locator.value ?? '') : (raw ?? ''));
	const mode = locator ? String(locator.mode) : /^\d+$/.test(value.trim()) ? 'id' : 'username';
	const ref = userRefFrom(mode, value) ?? (mode === 'username' ? userRefFrom('url', value) : undefined);
	if (!ref) {
		throw new NodeOperationError(ctx.getNode(), `"User" in item ${itemIndex + 1} is not a valid ${mode === 'id' ? 'user ID' : mode === 'url' ? 'profile URL' : 'username'}: "${value}"`, {
			itemIndex,
		});
	}
	return ref;
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
