import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection } from '../../common';
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
		idProperty(OP, 'subscriptionId', 'Subscription ID', 'The subscription to delete (from List Activity Subscriptions)'),
		optionsCollection('admin', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = readId(this, itemIndex, 'subscriptionId', 'Subscription ID');
		const body = await adminRequest.call(this, itemIndex, 'Deleting an activity subscription', {
			method: 'DELETE',
			path: `/2/activity/subscriptions/${id}`,
		});
		return { subscription_id: id, ...(unwrapData<IDataObject>(body) ?? {}) };
	},
};
