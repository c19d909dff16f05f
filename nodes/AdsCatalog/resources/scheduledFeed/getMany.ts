import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { catalogIdOf, catalogPath } from '../../common';

export const getMany: ItemOperation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		description: 'List the scheduled feeds of a catalog (the service supports one per user)',
		action: 'Get many scheduled feeds',
	},
	properties: [returnAllProperty(), limitProperty()],
	async execute(ctx: OperationContext, itemIndex: number) {
		const catalogId = catalogIdOf(ctx, itemIndex);
		const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
		return await ctx.paginate(
			{
				method: 'GET',
				path: catalogPath(catalogId, '/scheduled_feeds'),
			},
			{ returnAll, limit, style: 'ads' },
		);
	},
};
