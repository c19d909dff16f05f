import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import { listLocator } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { USER_FIELDS } from '../../fields';
import { joined, LIST_FIELDS, listIdParameter, multi } from './common';

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a list by ID or URL: its name and, as chosen, description, counts and owner',
		action: 'Get a list',
	},
	properties: [
		listLocator(),
		multi(
			'List Fields',
			'listFields',
			LIST_FIELDS,
			'List fields to return besides ID and name (list.fields)',
		),
		{
			displayName: 'Include Owner',
			name: 'includeOwner',
			type: 'boolean',
			default: false,
			description: "Whether to add the list's owner (as owner)",
		},
		multi(
			'User Fields',
			'userFields',
			USER_FIELDS,
			'Fields of the owner besides ID, name and username (user.fields; needs Include Owner)',
			{ show: { includeOwner: [true] } },
		),
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = listIdParameter(ctx, itemIndex);
		const qs: IDataObject = {};
		const listFields = joined(ctx, 'listFields', itemIndex);
		if (listFields) qs['list.fields'] = listFields;
		if (ctx.getNodeParameter('includeOwner', itemIndex, false)) {
			qs.expansions = 'owner_id';
			const userFields = joined(ctx, 'userFields', itemIndex);
			if (userFields) qs['user.fields'] = userFields;
		}
		const body = await ctx.request({ method: 'GET', path: `/2/lists/${id}`, qs });
		const list = body?.data as IDataObject | undefined;
		if (!list) {
			// The service answers a list it cannot show (deleted, private) with a 200 and errors only.
			const problem = ((Array.isArray(body?.errors) ? body.errors : []) as IDataObject[])[0];
			throw new NodeOperationError(ctx.getNode(), `The list ${id} was not found`, {
				itemIndex,
				description: problem
					? String(problem.detail ?? problem.title ?? '')
					: 'The service returned no list for this ID.',
			});
		}
		// The owner is added only when Include Owner asked for it: an answer that carries users
		// anyway does not change the item's shape (the output schema has no owner without it).
		if (!ctx.getNodeParameter('includeOwner', itemIndex, false)) return list;
		const owners = ((body.includes as IDataObject | undefined)?.users ?? []) as IDataObject[];
		const owner = owners.find((u) => String(u.id) === String(list.owner_id));
		return owner ? { ...list, owner } : list;
	},
};
