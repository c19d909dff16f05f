import type { IDataObject } from 'n8n-workflow';
import { deletedResult } from '../../../shared/router';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE, idProperty, readId } from './common';

const OP = 'deleteWebhook';

export const deleteWebhook: ItemOperation = {
	option: {
		name: 'Delete Webhook',
		value: OP,
		description: `DESTRUCTIVE: permanently delete a webhook of the app; its deliveries and links stop, and workflows whose trigger uses it stop receiving events. ${BEARER_NOTE}.`,
		action: 'Delete a webhook',
	},
	properties: [
		idProperty(OP, 'webhookId', 'Webhook ID', 'The webhook to delete (from List Webhooks)'),
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'webhookId', 'Webhook ID');
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'DELETE',
			path: `/2/webhooks/${id}`,
		});
		return deletedResult(id, unwrapData<IDataObject>(body));
	},
};
