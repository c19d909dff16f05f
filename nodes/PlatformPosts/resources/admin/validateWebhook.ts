import type { IDataObject } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE, idProperty, readId } from './common';

const OP = 'validateWebhook';

export const validateWebhook: ItemOperation = {
	option: {
		name: 'Validate Webhook',
		value: OP,
		description: `Ask the service to send a CRC check to a webhook now, which re-enables it when the check passes. ${BEARER_NOTE}.`,
		action: 'Validate a webhook',
	},
	properties: [
		idProperty(OP, 'webhookId', 'Webhook ID', 'The webhook to check (from List Webhooks)'),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'webhookId', 'Webhook ID');
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'PUT',
			path: `/2/webhooks/${id}`,
		});
		return { webhook_id: id, ...(unwrapData<IDataObject>(body) ?? {}) };
	},
};
