import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import { listLocator } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { fieldQuery, mergeIncludes } from '../../fields';
import { collectIncludes, listIdParameter, postFieldProperty } from './common';

export const getPosts: ItemOperation = {
	option: {
		name: 'Get Posts',
		value: 'getPosts',
		description: "Read the latest posts of a list's members, newest first, 100 per request",
		action: "Get a list's posts",
	},
	properties: [
		listLocator(),
		returnAllProperty(),
		{
			...limitProperty(100000),
			description:
				'Max number of posts to return. Results are read 100 at a time; keep a limit unless you need everything.',
		},
		postFieldProperty('tweetFields'),
		postFieldProperty('expansions'),
		postFieldProperty('mediaFields'),
		postFieldProperty('userFields'),
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = listIdParameter(ctx, itemIndex);
		const { includes, onPage } = collectIncludes();
		const data = await ctx.paginate(
			{ method: 'GET', path: `/2/lists/${id}/tweets`, qs: fieldQuery(ctx, itemIndex) },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				tokenParam: 'pagination_token',
				onPage,
			},
		);
		return mergeIncludes({ data, includes } as IDataObject);
	},
};
