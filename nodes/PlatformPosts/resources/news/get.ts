import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import { locatorValue } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { newsFieldsProperty, newsFieldsQuery, NEWS_URL_REGEX, newsIdFrom } from './fields';

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
			description: 'The story, by its ID (as returned by News > Search) or by its URL',
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: '1850000000000000001',
					validation: [
						{
							type: 'regex',
							properties: { regex: '^\\d{1,19}$', errorMessage: 'A news ID is 1-19 digits' },
						},
					],
				},
				{
					displayName: 'By URL',
					name: 'url',
					type: 'string',
					placeholder: 'https://x.com/i/trending/1850000000000000001',
					extractValue: { type: 'regex', regex: NEWS_URL_REGEX },
					validation: [
						{
							type: 'regex',
							properties: { regex: NEWS_URL_REGEX, errorMessage: 'Not a news story URL' },
						},
					],
				},
			],
		},
		newsFieldsProperty,
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = locatorValue(
			ctx.getNode(),
			ctx.getNodeParameter('newsId', itemIndex),
			'News Story',
			itemIndex,
			newsIdFrom,
		);
		const body = await ctx.request({
			method: 'GET',
			path: `/2/news/${id}`,
			qs: newsFieldsQuery(ctx, itemIndex),
		});
		return unwrapData<IDataObject>(body);
	},
};
