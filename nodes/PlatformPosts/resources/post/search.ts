import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { paginate } from '../../../shared/transport';
import { fieldProperties, fieldQuery, mergeIncludes } from './fields';

const show = showFor('post', 'search');

export const search: ItemOperation = {
	option: { name: 'Search', value: 'search', description: 'Search recent posts or the full archive', action: 'Search posts' },
	properties: [
		{ displayName: 'Query', name: 'query', type: 'string', default: '', required: true, displayOptions: show, placeholder: 'from:n8n_io -is:retweet', description: 'Search query with the platform operators' },
		{
			displayName: 'Archive',
			name: 'archive',
			type: 'options',
			default: 'recent',
			displayOptions: show,
			options: [
				{ name: 'Recent (Last 7 Days)', value: 'recent' },
				{ name: 'Full Archive', value: 'all' },
			],
		},
		returnAllProperty({ resource: ['post'], operation: ['search'] }),
		limitProperty({ resource: ['post'], operation: ['search'] }, 1000),
		{
			displayName: 'Search Options',
			name: 'searchOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: show,
			options: [
				{ displayName: 'End Time', name: 'end_time', type: 'dateTime', default: '' },
				{ displayName: 'Sort Order', name: 'sort_order', type: 'options', default: 'recency', options: [{ name: 'Recency', value: 'recency' }, { name: 'Relevancy', value: 'relevancy' }] },
				{ displayName: 'Start Time', name: 'start_time', type: 'dateTime', default: '' },
			],
		},
		...fieldProperties('search'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const archive = this.getNodeParameter('archive', itemIndex, 'recent') as string;
		const options = this.getNodeParameter('searchOptions', itemIndex, {}) as IDataObject;
		const qs: IDataObject = { query: this.getNodeParameter('query', itemIndex), ...fieldQuery(this, itemIndex) };
		for (const key of ['start_time', 'end_time']) if (options[key]) qs[key] = new Date(String(options[key])).toISOString();
		if (options.sort_order) qs.sort_order = options.sort_order;
		const pages: IDataObject[] = [];
		const posts = await paginate.call(
			this,
			{ method: 'GET', path: `/2/tweets/search/${archive === 'all' ? 'all' : 'recent'}`, qs, itemIndex },
			{
				returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: this.getNodeParameter('limit', itemIndex, 50) as number,
				pageSizeParam: 'max_results',
				maxPageSize: 100,
				minPageSize: 10,
				tokenParam: 'next_token',
				onPage: (body) => pages.push(body),
			},
		);
		if (this.getNodeParameter('output', itemIndex, 'merged') === 'raw') return posts;
		const includes: IDataObject = { users: [], media: [] };
		for (const page of pages) {
			const inc = (page.includes ?? {}) as IDataObject;
			(includes.users as IDataObject[]).push(...((inc.users ?? []) as IDataObject[]));
			(includes.media as IDataObject[]).push(...((inc.media ?? []) as IDataObject[]));
		}
		return mergeIncludes({ data: posts, includes });
	},
};
