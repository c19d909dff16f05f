import type { IDataObject } from 'n8n-workflow';
import { ANY_KIND } from '../../../shared/authentication';
import { splitList } from '../../../shared/lists';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors, userFieldsProperty } from '../../fields';
import { userRefFrom } from '../../../shared/locators';

/** The user lookups take at most 100 ids or usernames per request. */
const USER_LOOKUP_BATCH = 100;

/** Ids, or usernames (with or without @, or profile URLs), deduplicated; the rest is reported as invalid. */
function userListFrom(
	by: 'ids' | 'usernames',
	raw: unknown,
): { values: string[]; invalid: string[] } {
	const parts = splitList(raw);
	const values: string[] = [];
	const seen = new Set<string>();
	const invalid: string[] = [];
	for (const part of parts) {
		const ref =
			by === 'ids'
				? userRefFrom('id', part)
				: (userRefFrom('username', part) ?? userRefFrom('url', part));
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
			displayOptions: { show: { lookupBy: ['usernames'] } },
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
			displayOptions: { show: { lookupBy: ['ids'] } },
			description:
				'Numeric user IDs separated by commas, spaces or new lines. More than 100 are split into several requests.',
		},
		userFieldsProperty,
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const by =
			ctx.getNodeParameter('lookupBy', itemIndex, 'usernames') === 'ids' ? 'ids' : 'usernames';
		const label = by === 'ids' ? 'User IDs' : 'Usernames';
		const { values, invalid } = userListFrom(
			by,
			ctx.getNodeParameter(by === 'ids' ? 'userIds' : 'usernames', itemIndex, ''),
		);
		if (invalid.length) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: ${label}: "${invalid[0]}" is not a ${by === 'ids' ? 'user ID (1-19 digits)' : 'username (1-15 letters, digits or _) or profile URL'}`,
				{
					itemIndex,
					description:
						invalid.length > 1 ? `Also not valid: ${invalid.slice(1, 10).join(', ')}` : undefined,
				},
			);
		}
		if (!values.length) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: ${label} is empty`,
				{
					itemIndex,
				},
			);
		}
		const fields = ctx.getNodeParameter('userFields', itemIndex, []) as string[];
		const out: IDataObject[] = [];
		for (let i = 0; i < values.length; i += USER_LOOKUP_BATCH) {
			const batch = values.slice(i, i + USER_LOOKUP_BATCH).join(',');
			const qs: IDataObject = by === 'ids' ? { ids: batch } : { usernames: batch };
			if (fields.length) qs['user.fields'] = fields.join(',');
			const body = await ctx.request({
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
