import { limitProperty, returnAllProperty } from '../../../shared/descriptions';
import type { ItemOperation, OperationContext } from '../../../shared/router';
import { adminPaginate, BEARER_NOTE } from './common';

const OP = 'listSubscriptions';

export const listSubscriptions: ItemOperation = {
	option: {
		name: 'List Activity Subscriptions',
		value: OP,
		description: `List the app's activity subscriptions (event type, filter, tag, webhook). ${BEARER_NOTE}.`,
		action: 'List activity subscriptions',
	},
	properties: [returnAllProperty(), limitProperty(10000)],
	async execute(ctx: OperationContext, itemIndex: number) {
		return await adminPaginate.call(ctx, itemIndex, {
			method: 'GET',
			path: '/2/activity/subscriptions',
		});
	},
};
