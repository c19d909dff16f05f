import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { unwrapData } from '../../../shared/transport';
import { adminRequest, BEARER_NOTE, idProperty, readId, replayStamp } from './common';

const OP = 'replayWebhook';
const DAY_MS = 24 * 60 * 60 * 1000;

export const replayWebhook: ItemOperation = {
	option: {
		name: 'Replay Webhook Events',
		value: OP,
		description: `Ask the service to deliver again the events of a time window (within the past 24 hours) to a webhook: the manual counterpart of the trigger's automatic recovery. Events arrive at the webhook, not in this node's output; the trigger drops duplicates. ${BEARER_NOTE}.`,
		action: 'Replay webhook events',
	},
	properties: [
		idProperty(OP, 'webhookId', 'Webhook ID', 'The webhook that receives the replayed events'),
		{
			displayName: 'From',
			name: 'from',
			type: 'dateTime',
			default: '',
			required: true,
			description:
				'Start of the window (inclusive, at most 24 hours ago; minutes precision, UTC unless a zone is given)',
		},
		{
			displayName: 'To',
			name: 'to',
			type: 'dateTime',
			default: '',
			required: true,
			description: 'End of the window (minutes precision)',
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const id = readId(ctx, itemIndex, 'webhookId', 'Webhook ID');
		const invalid = (message: string) =>
			new NodeOperationError(ctx.getNode(), `Invalid input in item ${itemIndex + 1}: ${message}`, {
				itemIndex,
			});
		const from = new Date(String(ctx.getNodeParameter('from', itemIndex, '') ?? ''));
		const to = new Date(String(ctx.getNodeParameter('to', itemIndex, '') ?? ''));
		if (Number.isNaN(from.getTime())) throw invalid('From: not a date and time');
		if (Number.isNaN(to.getTime())) throw invalid('To: not a date and time');
		if (from.getTime() >= to.getTime()) throw invalid('From must be before To');
		// A few minutes of tolerance for clock differences.
		if (Date.now() - from.getTime() > DAY_MS + 5 * 60 * 1000) {
			throw invalid('From: the service replays only the past 24 hours');
		}
		const body = await adminRequest.call(ctx, itemIndex, {
			method: 'POST',
			path: '/2/webhooks/replay',
			body: { webhook_id: id, from_date: replayStamp(from), to_date: replayStamp(to) },
			unsafeFailureHint:
				'A replay job may have been created: the webhook receives a replay_job_status event when it ends.',
		});
		return {
			webhook_id: id,
			from_date: replayStamp(from),
			to_date: replayStamp(to),
			...(unwrapData<IDataObject>(body) ?? {}),
		};
	},
};
