import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import { postIdsFrom } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { fieldProperties, fieldQuery, mergeIncludes, partialErrors } from '../../fields';

/** The lookup takes at most 100 ids per request. */
const LOOKUP_BATCH = 100;

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description:
			'Look up one or many posts by ID or URL (more than 100 are split into requests of 100)',
		action: 'Get posts',
	},
	properties: [
		{
			displayName: 'Post IDs or URLs',
			name: 'postIds',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1346889436626259968, https://x.com/user/status/1346889436626259969',
			description:
				'One or many posts, each by its ID or its URL (https://host/user/status/ID), separated by commas, spaces or new lines. More than 100 are split into several requests of 100.',
		},
		...fieldProperties,
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const { ids, invalid } = postIdsFrom(ctx.getNodeParameter('postIds', itemIndex, ''));
		if (invalid.length) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Post IDs or URLs: "${invalid[0]}" is not a post ID or URL`,
				{
					itemIndex,
					description:
						invalid.length > 1 ? `Also not valid: ${invalid.slice(1, 10).join(', ')}` : undefined,
				},
			);
		}
		if (!ids.length) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Post IDs or URLs is empty`,
				{
					itemIndex,
				},
			);
		}
		const unique = [...new Set(ids)];
		const qs = fieldQuery(ctx, itemIndex);
		const merge = ctx.getNodeParameter('output', itemIndex, 'merged') !== 'raw';
		const out: IDataObject[] = [];
		for (let i = 0; i < unique.length; i += LOOKUP_BATCH) {
			const body = await ctx.request({
				method: 'GET',
				path: '/2/tweets',
				qs: { ...qs, ids: unique.slice(i, i + LOOKUP_BATCH).join(',') },
			});
			if (merge) out.push(...mergeIncludes(body), ...partialErrors(body));
			else out.push(body);
		}
		return out;
	},
};
