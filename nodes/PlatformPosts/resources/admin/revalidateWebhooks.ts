import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { ItemOperation, OperationContext } from '../../../shared/router';
import { asNodeError, errorInfo } from '../../../shared/errors';
import { unwrapData } from '../../../shared/transport';
import { validateInput } from '../../../shared/validation';
import { adminRequest, BEARER_NOTE, listOf, replayStamp } from './common';

const OP = 'revalidateWebhooks';
const HOUR_MS = 60 * 60 * 1000;

const input = z.object({
	replayHours: z
		.number()
		.int('must be a whole number of hours')
		.min(0, 'must be 0 or more')
		.max(24, 'the service replays at most the past 24 hours'),
	failWhenStillInvalid: z.boolean(),
});

/**
 * The watchdog of Platform Trigger webhooks. When n8n is unreachable for long enough, the service marks
 * a webhook invalid and stops sending anything to it, CRC checks included; n8n calls nothing on an
 * active trigger that could notice. This operation, on a schedule, lists the app's webhooks and asks
 * the service to re-validate each invalid one (PUT /2/webhooks/:id sends a CRC check). When the check
 * reaches a trigger that was restarted meanwhile, the trigger itself asks for a replay of the gap since
 * its own last delivery. A webhook invalidated while the same n8n process kept running gets no replay
 * from the trigger: Replay the Last N Hours covers that case.
 */
export const revalidateWebhooks: ItemOperation = {
	option: {
		name: 'Re-Validate Invalid Webhooks',
		value: OP,
		description: `Watchdog for Platform Trigger webhooks: list the app's webhooks and ask the service to re-validate (CRC check) every invalid one; outputs one item per webhook with what was done. Run it on a schedule. ${BEARER_NOTE}.`,
		action: 'Re-validate invalid webhooks',
	},
	properties: [
		{
			displayName: 'Replay the Last N Hours',
			name: 'replayHours',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 24, numberPrecision: 0 },
			default: 0,
			description:
				'0 leaves the replay to the trigger: a trigger restarted since its last delivery asks for the missed events itself when the re-validation check reaches it. Set 1-24 to also ask for a replay of that many hours for each webhook re-validated here (for a webhook invalidated while n8n kept running); the trigger drops events it already handled.',
		},
		{
			displayName: 'Fail If a Webhook Stays Invalid',
			name: 'failWhenStillInvalid',
			type: 'boolean',
			default: true,
			description:
				"Whether the node fails when a webhook's check fails again (so that the workflow's error workflow can alert). Off: such webhooks are output with action still_invalid.",
		},
	],
	async execute(ctx: OperationContext, itemIndex: number) {
		const { replayHours, failWhenStillInvalid } = validateInput(
			ctx.getNode(),
			input,
			{
				replayHours: ctx.getNodeParameter('replayHours', itemIndex, 0),
				failWhenStillInvalid: ctx.getNodeParameter('failWhenStillInvalid', itemIndex, true),
			},
			itemIndex,
			{
				replayHours: 'Replay the Last N Hours',
				failWhenStillInvalid: 'Fail If a Webhook Stays Invalid',
			},
		);
		const webhooks = listOf(
			await adminRequest.call(ctx, itemIndex, {
				method: 'GET',
				path: '/2/webhooks',
			}),
		);
		const out: IDataObject[] = [];
		for (const webhook of webhooks) {
			const id = String(webhook.id ?? '');
			const row: IDataObject = {
				webhook_id: id,
				url: webhook.url,
				was_valid: webhook.valid === true,
			};
			if (webhook.valid === true || !/^\d{1,19}$/.test(id)) {
				out.push({ ...row, action: 'none', valid: webhook.valid === true });
				continue;
			}
			try {
				const body = await adminRequest.call(ctx, itemIndex, {
					method: 'PUT',
					path: `/2/webhooks/${id}`,
				});
				const answer = unwrapData<IDataObject>(body) ?? {};
				// The older answer says only that a check was attempted; the current one says valid.
				Object.assign(row, {
					action: 'revalidated',
					valid: answer.valid ?? answer.attempted === true,
				});
			} catch (error) {
				if (!(error instanceof NodeApiError)) throw asNodeError(ctx, error, itemIndex);
				out.push({
					...row,
					action: 'still_invalid',
					valid: false,
					error: error.message,
					http_code: error.httpCode ?? null,
				});
				continue;
			}
			if (replayHours > 0) row.replay = await replay.call(ctx, itemIndex, id, replayHours);
			out.push(row);
		}
		const failed = out.filter((row) => row.action === 'still_invalid');
		if (failed.length && failWhenStillInvalid) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${failed.length} webhook${failed.length === 1 ? '' : 's'} of the app stayed invalid: ${failed.map((row) => `${String(row.webhook_id)} (${String(row.error)})`).join('; ')}`,
				{
					itemIndex,
					description:
						'The service could not validate these webhooks: their URL did not answer the CRC check correctly. Check that n8n is reachable at the URL and that the workflow with the Platform Trigger is active; an unused webhook can be removed with Delete Webhook.',
				},
			);
		}
		return out;
	},
};

/** Asks for a replay of the past `hours` to one webhook; a running replay job is reported, not retried. */
async function replay(
	this: OperationContext,
	itemIndex: number,
	webhookId: string,
	hours: number,
): Promise<IDataObject> {
	const now = new Date();
	// Whole minutes inside the service's window (it takes at most the past 24 hours).
	const from = new Date(Math.ceil((now.getTime() - hours * HOUR_MS) / 60_000) * 60_000);
	const window = { from_date: replayStamp(from), to_date: replayStamp(now) };
	try {
		const body = await adminRequest.call(this, itemIndex, {
			method: 'POST',
			path: '/2/webhooks/replay',
			body: { webhook_id: webhookId, ...window },
			unsafeFailureHint:
				'A replay job may have been created: the webhook receives a replay_job_status event when it ends.',
		});
		return { ...window, ...(unwrapData<IDataObject>(body) ?? {}) };
	} catch (error) {
		// The service's "conflict" problem: a replay job is running already (the trigger's own
		// recovery, or an earlier run).
		if (errorInfo(error).type === 'conflict') {
			return { ...window, skipped: 'a replay job is already running for the app' };
		}
		throw asNodeError(this, error, itemIndex);
	}
}
