import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { showFor } from '../../../shared/router';

const NEWS_FIELDS = [
	'category',
	'cluster_posts_results',
	'contexts',
	'disclaimer',
	'hook',
	'keywords',
	'last_updated_at_ms',
	'name',
	'summary',
];

export function newsFieldsProperty(operation: string): INodeProperties {
	return {
		displayName: 'News Fields',
		name: 'newsFields',
		type: 'multiOptions',
		default: [],
		displayOptions: showFor('news', operation),
		description: 'Fields of each story to return besides its ID (news.fields); without any the service returns the name',
		options: NEWS_FIELDS.map((value) => ({ name: value, value })),
	};
}

export function newsFieldsQuery(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const fields = (ctx.getNodeParameter('newsFields', itemIndex, []) as string[]) ?? [];
	return fields.length ? { 'news.fields': fields.join(',') } : {};
}
