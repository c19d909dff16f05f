import type { IDataObject } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import {
	adminRequest,
	BEARER_NOTE,
	idProperty,
	readId,
	readReplayWindow,
	replayWindowProperties,
} from './common';

const OP = 'replayWebhook';

export const replayWebhook: ItemOperation = {
	option: {
		name: 'Replay Webhook Events',
		value: OP,
		description: `Ask the service to deliver again the events of a time window (within the past 24 hours) to a webhook: the manual counterpart of the trigger's automatic recovery. Events arrive at the webhook, not in this node's output; the trigger drops duplicates. ${BEARER_NOTE}.`,
		action: 'Replay webhook events',
	},
	properties: [
		idProperty(OP, 'webhookId', 'Webhook ID', 'The webhook that receives the replayed events'),
		...replayWindowProperties,
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'webhookId', 'Webhook ID');
		const window = readReplayWindow(ctx, itemIndex);
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'POST',
			path: '/2/webhooks/replay',
			body: { webhook_id: id, ...window },
			unsafeFailureHint:
				'A replay job may have been created: the webhook receives a replay_job_status event when it ends.',
		});
		return {
			webhook_id: id,
			...window,
			...(unwrapData<IDataObject>(body) ?? {}),
		};
	},
};
