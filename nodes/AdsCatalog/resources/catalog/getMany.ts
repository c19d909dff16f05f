import type { IDataObject } from 'n8n-workflow';
import { ADS_API_VERSION } from '../../../shared/ads';

import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description: 'List the product catalogs of a user (a user has at most one)',
		action: 'Get many catalogs',
	},
	properties: [
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			placeholder: '1000000001',
			description: 'The user whose catalogs to list. Leave empty for the authenticated user.',
		},
		returnAllProperty(),
		limitProperty(),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const userId = String(ctx.getNodeParameter('userId', itemIndex, '') ?? '').trim();
		const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
		return await ctx.paginate(
			{
				method: 'GET',
				path: `${ADS_API_VERSION}/product_catalogs`,
				qs: userId ? ({ user_id: userId } as IDataObject) : undefined,
			},
			{ returnAll, limit, style: 'ads' },
		);
	},
};
