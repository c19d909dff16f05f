import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { isoTime, optionsCollection, postsPaginate, readOptions } from '../../common';
import { fieldProperties, fieldQuery, mergeIncludes } from './fields';

/** Query, archive and time window, shared by Search and Count. */
export function queryProperties(operation: string): INodeProperties[] {
	return [
		{
			displayName: 'Query',
			name: 'query',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showFor('post', operation),
			placeholder: 'from:n8n_io -is:retweet',
			description:
				'Search query with the platform operators (e.g. from:user, #hashtag, "exact phrase", -is:retweet, has:media). Up to 512 characters for Recent, 1,024 for Full Archive.',
		},
		{
			displayName: 'Archive',
			name: 'archive',
			type: 'options',
			default: 'recent',
			displayOptions: showFor('post', operation),
			description: 'Which posts to search',
			options: [
				{ name: 'Recent (Last 7 Days)', value: 'recent' },
				{ name: 'Full Archive', value: 'all', description: 'All posts since 2006; needs an access level that includes it' },
			],
		},
	];
}

export const timeOptions: INodeProperties[] = [
	{
		displayName: 'End Time',
		name: 'endTime',
		type: 'dateTime',
		default: '',
		description: 'Only posts created before this time (UTC unless a zone is given)',
	},
	{
		displayName: 'Start Time',
		name: 'startTime',
		type: 'dateTime',
		default: '',
		description: 'Only posts created at or after this time (Recent: at most 7 days ago)',
	},
];

export function timeQuery(ctx: IExecuteFunctions, itemIndex: number, options: IDataObject): IDataObject {
	const qs: IDataObject = {};
	const start = isoTime(ctx, options.startTime, 'Start Time', itemIndex);
	const end = isoTime(ctx, options.endTime, 'End Time', itemIndex);
	if (start) qs.start_time = start;
	if (end) qs.end_time = end;
	return qs;
}

export const search: ItemOperation = {
	option: {
		name: 'Search',
		value: 'search',
		description: 'Search recent posts (last 7 days) or the full archive',
		action: 'Search posts',
	},
	properties: [
		...queryProperties('search'),
		returnAllProperty({ resource: ['post'], operation: ['search'] }),
		{
			...limitProperty({ resource: ['post'], operation: ['search'] }, 10000),
			description: 'Max number of results to return (requests of up to 100, or 500 for Full Archive, are made until it is reached)',
		},
		...fieldProperties('search'),
		optionsCollection('post', 'search', [
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
		]),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const archive = this.getNodeParameter('archive', itemIndex, 'recent') === 'all' ? 'all' : 'recent';
		const options = readOptions(this, itemIndex);
		const qs: IDataObject = {
			query: String(this.getNodeParameter('query', itemIndex, '')),
			...fieldQuery(this, itemIndex),
			...timeQuery(this, itemIndex, options),
		};
		if (options.sortOrder) qs.sort_order = options.sortOrder;
		const pages: IDataObject[] = [];
		const posts = await postsPaginate.call(
			this,
			itemIndex,
			{ method: 'GET', path: `/2/tweets/search/${archive}`, qs },
			{
				returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: this.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: archive === 'all' ? 500 : 100,
				minPageSize: 10,
				tokenParam: 'next_token',
				onPage: (body) => pages.push(body),
			},
		);
		if (this.getNodeParameter('output', itemIndex, 'merged') === 'raw') {
			// Raw: the posts as sent, with each page's includes and meta kept beside them.
			return pages.map((page, index) => ({
				...page,
				data: index === pages.length - 1 ? (page.data as IDataObject[] | undefined)?.filter((p) => posts.includes(p)) : page.data,
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
