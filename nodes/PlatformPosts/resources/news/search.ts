import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import { APP_OR_OAUTH2 } from '../../../shared/authentication';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { validateInput } from '../../../shared/validation';
import { newsFieldsProperty, newsFieldsQuery } from './fields';

const schema = z.object({
	query: z.string().min(1, 'is required').max(2048, 'at most 2,048 characters'),
	limit: z.number().int().min(1, 'at least 1').max(100, 'at most 100'),
	maxAgeHours: z
		.number()
		.int()
		.min(1, 'at least 1 hour')
		.max(720, 'at most 720 hours (30 days)')
		.optional(),
});

export const search: ItemOperation = {
	option: {
		name: 'Search',
		value: 'search',
		description: 'Search trending news stories for a query',
		action: 'Search news',
	},
	properties: [
		{
			displayName: 'Query',
			name: 'query',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'automation',
			description: 'What the stories are about (1 to 2,048 characters)',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1, maxValue: 100 },
			description: 'Max number of results to return',
		},
		newsFieldsProperty,
	],
	options: [
		{
			displayName: 'Max Age (Hours)',
			name: 'maxAgeHours',
			type: 'number',
			default: 168,
			typeOptions: { minValue: 1, maxValue: 720 },
			description: 'Only stories updated within this many hours (1 to 720)',
		},
	],
	authentication: APP_OR_OAUTH2,
	async execute(ctx: OperationContext, itemIndex: number) {
		const options = ctx.options;
		const input = validateInput(
			ctx.getNode(),
			schema,
			{
				query: String(ctx.getNodeParameter('query', itemIndex, '')).trim(),
				limit: Number(ctx.getNodeParameter('limit', itemIndex, 50)),
				maxAgeHours: options.maxAgeHours === undefined ? undefined : Number(options.maxAgeHours),
			},
			itemIndex,
			{ query: 'Query', limit: 'Limit', maxAgeHours: 'Max Age (Hours)' },
		);
		const qs: IDataObject = {
			query: input.query,
			max_results: input.limit,
			...newsFieldsQuery(ctx, itemIndex),
		};
		if (input.maxAgeHours !== undefined) qs.max_age_hours = input.maxAgeHours;
		const body = await ctx.request({
			method: 'GET',
			path: '/2/news/search',
			qs,
		});
		const data = (
			Array.isArray(body?.data) ? body.data : body?.data ? [body.data] : []
		) as IDataObject[];
		return data.slice(0, input.limit);
	},
};
