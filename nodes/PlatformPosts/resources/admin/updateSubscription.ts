import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { subscriptionOf } from '../../../shared/activity';
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
		idProperty(
			OP,
			'subscriptionId',
			'Subscription ID',
			'The subscription to update (from List Activity Subscriptions)',
		),
		{
			displayName: 'Tag',
			name: 'tag',
			type: 'string',
			default: '',
			required: true,
			description: 'The new tag (1-200 characters), delivered with each event',
		},
		{
			displayName: 'Webhook ID',
			name: 'webhookId',
			type: 'string',
			default: '',
			description: 'Deliver to this webhook instead (leave empty to keep the current one)',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'subscriptionId', 'Subscription ID');
		const tag = String(ctx.getNodeParameter('tag', itemIndex, '') ?? '');
		if (tag.length < 1 || tag.length > 200) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid input in item ${itemIndex + 1}: Tag: 1-200 characters (got ${tag.length})`,
				{
					itemIndex,
				},
			);
		}
		const body: IDataObject = { tag };
		if (String(ctx.getNodeParameter('webhookId', itemIndex, '') ?? '').trim()) {
			body.webhook_id = readId(ctx, itemIndex, 'webhookId', 'Webhook ID');
		}
		const response = await adminRequest.call(ctx, itemIndex, {
			method: 'PUT',
			path: `/2/activity/subscriptions/${id}`,
			body,
		});
		return subscriptionOf(response);
	},
};
