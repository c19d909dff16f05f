import type { IDataObject } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE, idProperty, readId } from './common';

const OP = 'listAccountActivitySubscriptions';

/** Admin → List Account Activity Subscriptions: the accounts subscribed to a webhook. */
export const listAccountActivitySubscriptions: ItemOperation = {
	option: {
		name: 'List Account Activity Subscriptions',
		value: OP,
		description: `List the accounts whose whole activity (Account Activity) is delivered to a webhook: one item per account. ${BEARER_NOTE}.`,
		action: 'List account activity subscriptions',
	},
	properties: [
		idProperty(OP, 'webhookId', 'Webhook ID', 'The webhook whose subscribed accounts to list'),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'webhookId', 'Webhook ID');
		const data =
			unwrapData<IDataObject>(
				await adminRequest.call(ctx, itemIndex, {
					method: 'GET',
					path: `/2/account_activity/webhooks/${id}/subscriptions/all/list`,
				}),
			) ?? {};
		const subscriptions = (
			Array.isArray(data.subscriptions) ? data.subscriptions : []
		) as IDataObject[];
		const about: IDataObject = { webhook_id: String(data.webhook_id ?? id) };
		if (data.webhook_url !== undefined) about.webhook_url = data.webhook_url;
		if (data.application_id !== undefined) about.application_id = data.application_id;
		return subscriptions.map((s) => ({ ...about, ...s }));
	},
};
