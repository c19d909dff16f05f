import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND, APP_ONLY } from '../../../shared/authentication';
import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { fieldProperties, fieldQuery, mergeIncludes } from '../../fields';
import { queryProperties, timeOptions, timeQuery } from './query';

/** Query, archive and time window, shared by Search and Count. */
export const search: ItemOperation = {
	option: {
		name: 'Search',
		value: 'search',
		description: 'Search recent posts (last 7 days) or the full archive',
		action: 'Search posts',
	},
	properties: [
		...queryProperties,
		returnAllProperty(),
		{
			...limitProperty(10000),
			description:
				'Max number of results to return (requests of up to 100, or 500 for Full Archive, are made until it is reached)',
		},
		...fieldProperties,
	],
	options: [
		...timeOptions,
		{
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			default: 'recency',
			description: 'The order of the results',
			options: [
				{ name: 'Recency', value: 'recency', description: 'Newest first' },
				{ name: 'Relevancy', value: 'relevancy' },
			],
		},
	],
	authentication: ANY_KIND,
	// The full archive takes only the app-only bearer token; recent search takes every kind.
	authenticationRules: [
		{ when: { archive: ['all'] }, kinds: APP_ONLY, what: 'Full-archive search' },
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const archive =
			ctx.getNodeParameter('archive', itemIndex, 'recent') === 'all' ? 'all' : 'recent';
		const options = ctx.options;
		const qs: IDataObject = {
			query: String(ctx.getNodeParameter('query', itemIndex, '')),
			...fieldQuery(ctx, itemIndex),
			...timeQuery(ctx, itemIndex, options),
		};
		if (options.sortOrder) qs.sort_order = options.sortOrder;
		const pages: IDataObject[] = [];
		const posts = await ctx.paginate(
			{ method: 'GET', path: `/2/tweets/search/${archive}`, qs },
			{
				returnAll: ctx.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: ctx.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: archive === 'all' ? 500 : 100,
				minPageSize: 10,
				tokenParam: 'next_token',
				onPage: (body) => pages.push(body),
			},
		);
		if (ctx.getNodeParameter('output', itemIndex, 'merged') === 'raw') {
			// Raw: the posts as sent, with each page's includes and meta kept beside them.
			return pages.map((page, index) => ({
				...page,
				data:
					index === pages.length - 1
						? (page.data as IDataObject[] | undefined)?.filter((p) => posts.includes(p))
						: page.data,
			}));
		}
		const includes: IDataObject = { users: [], media: [], tweets: [], polls: [] };
		for (const page of pages) {
			const inc = (page.includes ?? {}) as IDataObject;
			for (const key of Object.keys(includes)) {
				(includes[key] as IDataObject[]).push(...((inc[key] ?? []) as IDataObject[]));
			}
		}
		return mergeIncludes({ data: posts, includes });
	},
};
