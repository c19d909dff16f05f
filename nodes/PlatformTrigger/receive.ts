import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from '../shared/transport';
import { normalizeDelivery } from './events';
import { crcResponseToken, DEFAULT_SIGNATURE_HEADER, isValidCrcToken, verifySignature } from './signature';
import type { TriggerState } from './state';
import { recoverMissedEvents } from './lifecycle';
import { seenBefore } from './state';
import { isStreamDelivery, normalizeStreamDelivery } from './stream';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** When this n8n process started (ms since the epoch): the performance timeline's origin. */
export function processStartedAt(): number {
	return Math.floor(performance.timeOrigin);
}

/**
 * Recovery after an n8n restart. n8n 2.40 calls no webhook method when it restarts with the
 * workflow still active (its webhook rows are kept, so checkExists and create are skipped), so the
 * gap is noticed here instead: the first CRC check or delivery this process handles, when the last
 * delivery is older than the process, asks the service to replay the gap (once per process start).
 * Replayed events that did arrive are dropped as duplicates. A failed request is logged and does not
 * fail the delivery or the CRC answer.
 */
export async function recoverAfterRestart(ctx: IWebhookFunctions, now: Date, startedAt: number): Promise<void> {
	const saved = ctx.getWorkflowStaticData('node') as TriggerState;
	const last = saved.lastReceivedAt ? Date.parse(saved.lastReceivedAt) : NaN;
	if (!(last < startedAt) || saved.recoveredAfterStart === startedAt) return;
	saved.recoveredAfterStart = startedAt;
	try {
		await recoverMissedEvents(ctx, now);
	} catch (error) {
		ctx.logger.error(
			`Platform Trigger: asking the service to replay the events missed while n8n was down failed (${(error as Error).message}); use Platform Posts → Admin → Replay Webhook for the window since ${saved.lastReceivedAt}`,
		);
	}
}

function respond(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

async function consumerSecret(ctx: IWebhookFunctions): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPES.appOnly);
	return String(credentials.consumerSecret ?? '');
}

/** GET: the CRC check. */
export async function answerCrc(
	ctx: IWebhookFunctions,
	now = new Date(),
	startedAt = processStartedAt(),
): Promise<IWebhookResponseData> {
	const token = (ctx.getQueryData() as IDataObject).crc_token;
	if (!isValidCrcToken(token)) return respond(ctx, 400, { error: 'crc_token missing or malformed' });
	const secret = await consumerSecret(ctx);
	if (!secret) {
		ctx.logger.error('Platform Trigger: cannot answer a CRC check: the credential has no consumer secret');
		return respond(ctx, 500, { error: 'not configured' });
	}
	await recoverAfterRestart(ctx, now, startedAt);
	return respond(ctx, 200, { response_token: crcResponseToken(secret, token) });
}

type RawRequest = { rawBody?: Buffer; readRawBody?: () => Promise<void>; body?: unknown };

async function rawBodyOf(ctx: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = ctx.getRequestObject() as unknown as RawRequest;
	if (!req.rawBody && typeof req.readRawBody === 'function') await req.readRawBody();
	if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
	return undefined;
}

/** POST: a signed delivery. Returns workflow data only for new, selected events. */
export async function receiveDelivery(
	ctx: IWebhookFunctions,
	now = new Date(),
	startedAt = processStartedAt(),
): Promise<IWebhookResponseData> {
	const headerName = String(
		ctx.getNodeParameter('options.signatureHeader', DEFAULT_SIGNATURE_HEADER) || DEFAULT_SIGNATURE_HEADER,
	).toLowerCase();
	const raw = await rawBodyOf(ctx);
	if (!raw) {
		ctx.logger.warn('Platform Trigger: a delivery without a readable body was refused');
		return respond(ctx, 400, { error: 'no body' });
	}
	if (raw.length > MAX_BODY_BYTES) return respond(ctx, 413, { error: 'body too large' });
	const secret = await consumerSecret(ctx);
	const signature = ctx.getHeaderData()[headerName];
	if (!secret || !verifySignature(secret, raw, signature)) {
		return respond(ctx, 401, { error: 'invalid signature' });
	}
	let body: unknown;
	try {
		body = JSON.parse(raw.toString('utf8'));
	} catch {
		return respond(ctx, 400, { error: 'body is not JSON' });
	}
	if (!body || typeof body !== 'object' || Array.isArray(body)) {
		return respond(ctx, 400, { error: 'body is not a JSON object' });
	}

	const saved = ctx.getWorkflowStaticData('node') as TriggerState;
	await recoverAfterRestart(ctx, now, startedAt);
	saved.lastReceivedAt = now.toISOString();
	const replayMode = ctx.getNodeParameter('options.replayStatus', 'emit') as string;
	let events: Array<{ event_type: string; event_id: string }>;
	if (ctx.getNodeParameter('mode', 'activity') === 'stream') {
		// A matching post, or the status of a replay job; activity envelopes are not ours here.
		const post = isStreamDelivery(body as IDataObject) ? normalizeStreamDelivery(body as IDataObject, now) : undefined;
		events = post
			? [post]
			: normalizeDelivery(body as IDataObject, now).filter((e) => e.event_type.startsWith('replay.') && replayMode === 'emit');
	} else {
		const selected = ctx.getNodeParameter('events', []) as string[];
		events = normalizeDelivery(body as IDataObject, now).filter((event) => {
			if (event.event_type.startsWith('replay.')) return replayMode === 'emit';
			return selected.includes('*') || selected.includes(event.event_type);
		});
	}
	const fresh = events.filter((event) => !seenBefore(saved, event.event_id, now.getTime()));
	if (!fresh.length) return { webhookResponse: { ok: true, events: 0 } };
	// We answer before n8n starts the run. n8n saves the static data written here (dedupe ids, time of
	// the last delivery) when it gets a response. With a response deferred until the run has started,
	// the run re-wraps the same static data and clears its "changed" flag first, and nothing is saved
	// (n8n 2.40: webhooks/webhook-helpers.js, executeWebhook, 'onReceived'). Answering ourselves keeps
	// the save before the run.
	respond(ctx, 200, { ok: true, events: fresh.length });
	return { noWebhookResponse: true, workflowData: [fresh.map((json) => ({ json }))] };
}
