import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { APP_OR_OAUTH2 } from '../../../shared/authentication';
import { splitList } from '../../../shared/lists';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { partialErrors } from '../../fields';
import { mergeSpaceIncludes, spaceFieldProperties, spaceFieldQuery } from './fields';

/** The service takes at most 100 creator ids per request. */
const BATCH = 100;

export const getByCreators: ItemOperation = {
	option: {
		name: 'Get by Creators',
		value: 'getByCreators',
		description: 'Get the live and scheduled Spaces created by some users',
		action: 'Get spaces by their creators',
	},
	properties: [
		{
			displayName: 'Creator User IDs',
			name: 'creatorUserIds',
			type: 'string',
			default: '',
			required: true,
			placeholder: '2244994945, 783214',
			description:
				'Numeric IDs of the users who created the Spaces, separated by commas, spaces or new lines (more than 100 are split into several requests)',
		},
		...spaceFieldProperties,
	],
	authentication: APP_OR_OAUTH2,
	async execute(ctx: OperationContext, itemIndex: number) {
		const ids: string[] = [];
		for (const part of splitList(ctx.getNodeParameter('creatorUserIds', itemIndex, ''))) {
			if (!/^\d{1,19}$/.test(part))
				throw new NodeOperationError(
					ctx.getNode(),
					`Invalid input in item ${itemIndex + 1}: Creator User IDs: "${part}" is not a user ID (1-19 digits)`,
					{ itemIndex },
				);
			if (!ids.includes(part)) ids.push(part);
		}
		if (!ids.length)
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Creator User IDs is empty`,
				{ itemIndex },
			);
		const fields = spaceFieldQuery(ctx, itemIndex);
		const out: IDataObject[] = [];
		// An array: the service takes the ids as a repeated parameter (ids=a&ids=b), not comma-separated.
		for (let i = 0; i < ids.length; i += BATCH) {
			const body = await ctx.request({
				method: 'GET',
				path: '/2/spaces/by/creator_ids',
				qs: { user_ids: ids.slice(i, i + BATCH), ...fields },
			});
			out.push(...mergeSpaceIncludes(body), ...partialErrors(body));
		}
		return out;
	},
};
