import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { optionsCollection, postsRequest, splitList } from '../../common';
import { partialErrors, USER_FIELDS } from '../post/fields';
import { userRefFrom } from './get';

/** The user lookups take at most 100 ids or usernames per request. */
export const USER_LOOKUP_BATCH = 100;

const show = showFor('user', 'getMany');

/** Ids, or usernames (with or without @, or profile URLs), deduplicated; the rest is reported as invalid. */
export function userListFrom(by: 'ids' | 'usernames', raw: unknown): { values: string[]; invalid: string[] } {
	const parts = Array.isArray(raw) ? raw.map(String).flatMap(splitList) : splitList(raw);
	const values: string[] = [];
	const seen = new Set<string>();
	const invalid: string[] = [];
	for (const part of parts) {
		const ref =
			by === 'ids' ? userRefFrom('id', part) : (userRefFrom('username', part) ?? userRefFrom('url', part));
		if (!ref) {
			invalid.push(part);
			continue;
		}
		const key = ref.value.toLowerCase();
		if (seen.has(key)) continue;
		seen.add(key);
		values.push(ref.value);
	}
	return { values, invalid };
}

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description:
			'Look up many users at once by IDs or by usernames (more than 100 are split into requests of 100). Users that do not exist come back as items with an error field.',
		action: 'Get many users',
	},
	properties: [
		{
			displayName: 'Look Up By',
			name: 'lookupBy',
			type: 'options',
			default: 'usernames',
			displayOptions: show,
			options: [
				{ name: 'Usernames', value: 'usernames' },
				{ name: 'User IDs', value: 'ids' },
			],
		},
		{
			displayName: 'Usernames',
			name: 'usernames',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'n8n_io, @jack',
			displayOptions: showFor('user', 'getMany', { lookupBy: ['usernames'] }),
			description:
				'Usernames (with or without @) or profile URLs, separated by commas, spaces or new lines. More than 100 are split into several requests.',
		},
		{
			displayName: 'User IDs',
			name: 'userIds',
			type: 'string',
			default: '',
			required: true,
			placeholder: '2244994945, 783214',
			displayOptions: showFor('user', 'getMany', { lookupBy: ['ids'] }),
			description:
				'Numeric user IDs separated by commas, spaces or new lines. More than 100 are split into several requests.',
		},
		{
			displayName: 'User Fields',
			name: 'userFields',
			type: 'multiOptions',
			displayOptions: show,
			options: USER_FIELDS.map((value) => ({ name: value, value })),
			default: [],
			description: 'Extra user fields to return besides ID, name and username',
		},
		optionsCollection('user', 'getMany'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const by = this.getNodeParameter('lookupBy', itemIndex, 'usernames') === 'ids' ? 'ids' : 'usernames';
		const label = by === 'ids' ? 'User IDs' : 'Usernames';
		const { values, invalid } = userListFrom(by, this.getNodeParameter(by === 'ids' ? 'userIds' : 'usernames', itemIndex, ''));
		if (invalid.length) {
			throw new NodeOperationError(
				this.getNode(),
				`Invalid input in item ${itemIndex + 1}: ${label}: "${invalid[0]}" is not a ${by === 'ids' ? 'user ID (1-19 digits)' : 'username (1-15 letters, digits or _) or profile URL'}`,
				{ itemIndex, description: invalid.length > 1 ? `Also not valid: ${invalid.slice(1, 10).join(', ')}` : undefined },
			);
		}
		if (!values.length) {
			throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: ${label} is empty`, {
				itemIndex,
			});
		}
		const fields = this.getNodeParameter('userFields', itemIndex, []) as string[];
		const out: IDataObject[] = [];
		for (let i = 0; i < values.length; i += USER_LOOKUP_BATCH) {
			const batch = values.slice(i, i + USER_LOOKUP_BATCH).join(',');
			const qs: IDataObject = by === 'ids' ? { ids: batch } : { usernames: batch };
			if (fields.length) qs['user.fields'] = fields.join(',');
			const body = await postsRequest.call(this, itemIndex, {
				method: 'GET',
				path: by === 'ids' ? '/2/users' : '/2/users/by',
				qs,
			});
			const data = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
			out.push(...data, ...partialErrors(body));
		}
		return out;
	},
};
