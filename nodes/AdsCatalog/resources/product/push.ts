import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { BatchContext, BatchOperation } from '../../../shared/router';
import { catalogIdOf, catalogPath } from '../../common';
import { manualProduct, pushFields, pushOptions } from './pushFields';
import { pushPace, runPush, startPush } from './pushEngine';

export const push: BatchOperation = {
	option: {
		name: 'Push',
		value: 'push',
		description:
			'Create or update products from the input items (one product per item), checked first, sent in batches of 25',
		action: 'Push products',
	},
	properties: pushFields,
	options: pushOptions,

	async executeBatch(
		ctx: BatchContext,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		if (items.length === 0) return [];
		const options = ctx.forItem(0).options;
		const mapping = ctx.getNodeParameter('mapping', 0, 'auto') as string;
		const path = catalogPath(catalogIdOf(ctx, 0), '/products');

		const state = startPush(items.length, (i) =>
			mapping === 'manual' ? manualProduct(ctx, i) : (items[i].json ?? {}),
		);
		const node = ctx.getNode();
		const pace = pushPace(node.typeVersion, options.concurrency);
		const results = await runPush(state, {
			node,
			keepGoing: options.onError === 'continue' || ctx.continueOnFail(),
			pace,
			// A products PUT creates or replaces each product by its id: sending it again is safe, so the
			// transport may retry it (429 after the reset, 5xx); a POST would never be.
			send: async (products, itemIndex) =>
				await ctx.forItem(itemIndex).request<IDataObject>({
					method: 'PUT',
					path,
					body: { products },
					onRateWindow: (window) => pace.observe(window),
				}),
		});
		return results.map((json, i) => ({ json, pairedItem: { item: i } }));
	},
};
