import type { IDataObject } from 'n8n-workflow';
import { deletedResult } from '../../../shared/router';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE, idProperty, readId } from './common';

const OP = 'deleteSubscription';

export const deleteSubscription: ItemOperation = {
	option: {
		name: 'Delete Activity Subscription',
		value: OP,
		description: `DESTRUCTIVE: delete an activity subscription; its events stop arriving at the webhook. ${BEARER_NOTE}.`,
		action: 'Delete an activity subscription',
	},
	properties: [
		idProperty(
			OP,
			'subscriptionId',
			'Subscription ID',
			'The subscription to delete (from List Activity Subscriptions)',
		),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'subscriptionId', 'Subscription ID');
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'DELETE',
			path: `/2/activity/subscriptions/${id}`,
		});
		return deletedResult(id, unwrapData<IDataObject>(body));
	},
};
