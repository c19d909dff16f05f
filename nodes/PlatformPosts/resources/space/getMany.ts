import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { APP_OR_OAUTH2 } from '../../../shared/authentication';
import { splitList } from '../../../shared/lists';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors } from '../../fields';
import { mergeSpaceIncludes, spaceFieldProperties, spaceFieldQuery, spaceIdFrom } from './fields';

/** The service takes at most 100 Space ids per request. */
const BATCH = 100;

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description:
			'Look up many Spaces by IDs or URLs (more than 100 are split into requests of 100). Spaces that do not exist come back as items with an error field.',
		action: 'Get many spaces',
	},
	properties: [
		{
			displayName: 'Space IDs',
			name: 'spaceIds',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1DXxyRYNejbKM, 1YpKkgVgevkxj',
			description: 'Space IDs or URLs, separated by commas, spaces or new lines',
		},
		...spaceFieldProperties,
	],
	authentication: APP_OR_OAUTH2,
	async execute(ctx: OperationContext, itemIndex: number) {
		const ids: string[] = [];
		for (const part of splitList(ctx.getNodeParameter('spaceIds', itemIndex, ''))) {
			const id = spaceIdFrom(part);
			if (!id)
				throw new NodeOperationError(
					ctx.getNode(),
					`Invalid input in item ${itemIndex + 1}: Space IDs: "${part}" is not a Space ID (1-13 letters and digits) or Space URL`,
					{ itemIndex },
				);
			if (!ids.includes(id)) ids.push(id);
		}
		if (!ids.length)
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Space IDs is empty`,
				{ itemIndex },
			);
		const fields = spaceFieldQuery(ctx, itemIndex);
		const out: IDataObject[] = [];
		// An array: the service takes the ids as a repeated parameter (ids=a&ids=b), not comma-separated.
		for (let i = 0; i < ids.length; i += BATCH) {
			const body = await ctx.request({
				method: 'GET',
				path: '/2/spaces',
				qs: { ids: ids.slice(i, i + BATCH), ...fields },
			});
			out.push(...mergeSpaceIncludes(body), ...partialErrors(body));
		}
		return out;
	},
};
