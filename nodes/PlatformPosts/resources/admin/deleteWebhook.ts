import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemOperation } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { optionsCollection } from '../../common';
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
		optionsCollection('admin', OP),
	],
	async execute(this: IExecuteFunctions, itemIndex: number) {
		const id = readId(this, itemIndex, 'webhookId', 'Webhook ID');
		const body = await adminRequest.call(this, itemIndex, 'Deleting a webhook', { method: 'DELETE', path: `/2/webhooks/${id}` });
		return { webhook_id: id, ...(unwrapData<IDataObject>(body) ?? {}) };
	},
};
