import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { locatorValue } from '../../../shared/locators';
import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection, postsRequest } from '../../common';
import { newsFieldsProperty, newsFieldsQuery } from './fields';

const show = showFor('news', 'get');
const NEWS_URL_REGEX = '^https?://[^/\\s]+/i/trending/(\\d{1,19})(?:[/?#].*)?$';

/** A news story id from an id or a story URL (https://<host>/i/trending/<id>). */
export function newsIdFrom(value: string): string | undefined {
	const trimmed = value.trim();
	if (/^\d{1,19}$/.test(trimmed)) return trimmed;
	return trimmed.match(new RegExp(NEWS_URL_REGEX, 'i'))?.[1];
}

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get one news story by ID',
		action: 'Get a news story',
	},
	properties: [
		{
			displayName: 'News Story',
			name: 'newsId',
			type: 'resourceLocator',
			default: { mode: 'id', value: '' },
			required: true,
			displayOptions: show,
			description: 'The story, by its ID (as returned by News > Search) or by its URL',
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: '1850000000000000001',
					validation: [{ type: 'regex', properties: { regex: '^\\d{1,19}$', errorMessage: 'A news ID is 1-19 digits' } }],
				},
				{
					displayName: 'By URL',
					name: 'url',
					type: 'string',
					placeholder: 'https://x.com/i/trending/1850000000000000001',
					extractValue: { type: 'regex', regex: NEWS_URL_REGEX },
					validation: [{ type: 'regex', properties: { regex: NEWS_URL_REGEX, errorMessage: 'Not a news story URL' } }],
				},
			],
		},
		newsFieldsProperty('get'),
		optionsCollection('news', 'get'),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = locatorValue(this.getNode(), this.getNodeParameter('newsId', itemIndex), 'News Story', itemIndex, newsIdFrom);
		const body = await postsRequest.call(this, itemIndex, {
			method: 'GET',
			path: `/2/news/${id}`,
			qs: newsFieldsQuery(this, itemIndex),
		});
		return unwrapData<IDataObject>(body);
	},
};
