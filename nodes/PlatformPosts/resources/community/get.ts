import type { IDataObject } from 'n8n-workflow';

import { ANY_KIND } from '../../../shared/authentication';
import { locatorValue } from '../../../shared/locators';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import {
	COMMUNITY_URL_REGEX,
	communityFieldsProperty,
	communityFieldsQuery,
	communityIdFrom,
} from './fields';

export const get: ItemOperation = {
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get one Community by ID or URL',
		action: 'Get a community',
	},
	properties: [
		{
			displayName: 'Community',
			name: 'communityId',
			type: 'resourceLocator',
			default: { mode: 'id', value: '' },
			required: true,
			description: 'The Community, by its ID or by its URL',
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: '1600000000000000001',
					validation: [
						{
							type: 'regex',
							properties: { regex: '^\\d{1,19}$', errorMessage: 'A Community ID is 1-19 digits' },
						},
					],
				},
				{
					displayName: 'By URL',
					name: 'url',
					type: 'string',
					placeholder: 'https://x.com/i/communities/1600000000000000001',
					extractValue: { type: 'regex', regex: COMMUNITY_URL_REGEX },
					validation: [
						{
							type: 'regex',
							properties: { regex: COMMUNITY_URL_REGEX, errorMessage: 'Not a Community URL' },
						},
					],
				},
			],
		},
		communityFieldsProperty,
	],
	authentication: ANY_KIND,
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = locatorValue(
			ctx.getNode(),
			ctx.getNodeParameter('communityId', itemIndex),
			'Community',
			itemIndex,
			communityIdFrom,
		);
		const body = await ctx.request({
			method: 'GET',
			path: `/2/communities/${id}`,
			qs: communityFieldsQuery(ctx, itemIndex),
		});
		return unwrapData<IDataObject>(body);
	},
};
