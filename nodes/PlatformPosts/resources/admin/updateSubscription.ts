import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { showFor } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection } from '../../common';
import { adminRequest, BEARER_NOTE, idProperty, readId } from './common';

const OP = 'updateSubscription';

export const updateSubscription: ItemOperation = {
	option: {
		name: 'Update Activity Subscription',
		value: OP,
		description: `Change the tag of an activity subscription, and optionally the webhook it delivers to (the event type and filter cannot change). ${BEARER_NOTE}.`,
		action: 'Update an activity subscription',
	},
	properties: [
		idProperty(OP, 'subscriptionId', 'Subscription ID', 'The subscription to update (from List Activity Subscriptions)'),
		{
			displayName: 'Tag',
			name: 'tag',
			type: 'string',
			default: '',
			required: true,
			displayOptions: showFor('admin', OP),
			description: 'The new tag (1-200 characters), delivered with each event',
		},
		{
			displayName: 'Webhook ID',
			name: 'webhookId',
			type: 'string',
			default: '',
			displayOptions: showFor('admin', OP),
			description: 'Deliver to this webhook instead (leave empty to keep the current one)',
		},
		optionsCollection('admin', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = readId(this, itemIndex, 'subscriptionId', 'Subscription ID');
		const tag = String(this.getNodeParameter('tag', itemIndex, '') ?? '');
		if (tag.length < 1 || tag.length > 200) {
			throw new NodeOperationError(this.getNode(), `Invalid input in item ${itemIndex + 1}: Tag: 1-200 characters (got ${tag.length})`, {
				itemIndex,
			});
		}
		const body: IDataObject = { tag };
		if (String(this.getNodeParameter('webhookId', itemIndex, '') ?? '').trim()) {
			body.webhook_id = readId(this, itemIndex, 'webhookId', 'Webhook ID');
		}
		const response = await adminRequest.call(this, itemIndex, 'Updating an activity subscription', {
			method: 'PUT',
			path: `/2/activity/subscriptions/${id}`,
			body,
		});
		const data = unwrapData<IDataObject>(response) ?? {};
		return ((data.subscription as IDataObject | undefined) ?? data) as IDataObject;
	},
};
