import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import { relatedOperation } from './related';

export const getQuotePosts = relatedOperation({
	name: 'Get Quote Posts',
	value: 'getQuotePosts',
	action: 'Get posts quoting a post',
	description: 'List the posts that quote a post, newest first',
	suffix: 'quote_tweets',
	kind: 'posts',
	// The service sends at least 10 per page; a lower Limit still returns only that many.
	page: { min: 10, max: 100 },
	authentication: ANY_KIND,
	options: [
		{
			displayName: 'Exclude',
			name: 'exclude',
			type: 'multiOptions',
			default: [],
			options: [
				{ name: 'Replies', value: 'replies' },
				{ name: 'Reposts', value: 'retweets' },
			],
			description: 'Leave out quote posts that are replies and/or reposts',
		},
	],
	optionsQuery: (options: IDataObject) => {
		const exclude = (options.exclude ?? []) as string[];
		return exclude.length ? { exclude: exclude.join(',') } : {};
	},
});
