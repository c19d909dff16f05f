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

const OP = 'replayAccountActivity';

/**
 * Admin → Replay Account Activity: the Account Activity events of a window delivered again to a
 * webhook (POST /2/account_activity/replay/webhooks/:id/subscriptions/all, the window as
 * from_date / to_date query values, yyyymmddhhmm in UTC).
 */
export const replayAccountActivity: ItemOperation = {
	option: {
		name: 'Replay Account Activity',
		value: OP,
		description: `Ask the service to deliver again the Account Activity events of a time window (within the past 24 hours) to a webhook, for every account subscribed to it. Events arrive at the webhook, not in this node's output; the trigger drops duplicates. ${BEARER_NOTE}.`,
		action: 'Replay account activity',
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
			path: `/2/account_activity/replay/webhooks/${id}/subscriptions/all`,
			qs: window,
			unsafeFailureHint:
				'A replay job may have been created: the webhook receives a replay_job_status event when it ends.',
		});
		return { webhook_id: id, ...window, ...(unwrapData<IDataObject>(body) ?? {}) };
	},
};
