import type { IDataObject } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE } from './common';

const OP = 'countAccountActivitySubscriptions';

/** Admin → Count Account Activity Subscriptions: how many accounts the app subscribes, of how many allowed. */
export const countAccountActivitySubscriptions: ItemOperation = {
	option: {
		name: 'Count Account Activity Subscriptions',
		value: OP,
		description: `Count the accounts subscribed to the app's webhooks (Account Activity) and how many the app may subscribe. ${BEARER_NOTE}.`,
		action: 'Count account activity subscriptions',
	},
	properties: [],
	async execute(ctx: OperationContext, itemIndex: number) {
		return (
			unwrapData<IDataObject>(
				await adminRequest.call(ctx, itemIndex, {
					method: 'GET',
					path: '/2/account_activity/subscriptions/count',
				}),
			) ?? {}
		);
	},
};
