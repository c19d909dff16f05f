import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { normalizeDelivery, wireEventType } from './events';
import {
	crcResponseToken,
	DEFAULT_SIGNATURE_HEADER,
	isValidCrcToken,
	verifySignature,
} from './signature';
import { recoverMissedEvents, selectedEventTypes } from './lifecycle';
import type { DeliveryMemory, TriggerState } from './state';
import { processMemory, triggerKey } from './state';
import type { ReadCredential } from '../shared/transport';
import { readBearerCredential } from '../shared/transport';
import { defaultReplayStatus, isStatusEvent, workflowDataFor } from './outputs';
import { isStreamDelivery, normalizeStreamDelivery } from './stream';
import { consumerSecretVerifies, readConsumerSecret } from './secretCache';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** When this n8n process started (ms since the epoch): the performance timeline's origin. */
export function processStartedAt(): number {
	return Math.floor(performance.timeOrigin);
}

/** Time as the delivery protocol sees it: the process's clock, or a simulated one in tests. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const processClock: Clock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

/**
 * A copy of an event whose run another delivery of this process is still starting waits this long at
 * most for that run to start (the copy is then answered as a duplicate) or to fail (the copy then
 * runs), well inside the service's 10 s deadline; after that it is answered 503 and the service sends
 * it again. Answering 200 at once, as before, lost the event when that first run then failed to start.
 */
export const COPY_WAIT_MS = 5_000;

function keyOf(ctx: IWebhookFunctions): string {
	return triggerKey(ctx.getWorkflow().id, ctx.getNode().id);
}

/**
 * Recovery after an n8n restart. n8n 2.40 calls no webhook method when it restarts with the
 * workflow still active (its webhook rows are kept, so checkExists and create are skipped), so the
 * gap is noticed here instead: the first CRC check or delivery this process handles, when the last
 * delivery is older than the process, asks the service to replay the gap (once per process start).
 *
 * True when this call is that first one; the caller then answers first and awaits replayGap: the
 * service wants a CRC answer within 3 s and a delivery acknowledged within 10 s, and the replay
 * request can take up to its timeout. The replay cannot run after webhook() has returned: n8n releases
 * the call's expression isolate then, and a credentialed request fails ("No bridge acquired").
 */
function recoveryDue(
	ctx: IWebhookFunctions,
	startedAt: number,
	since: string,
	memory: DeliveryMemory,
): boolean {
	const last = Date.parse(since);
	const webhookId = (ctx.getWorkflowStaticData('node') as TriggerState).webhookId;
	return last < startedAt && !!webhookId && memory.firstRecoveryInProcess(keyOf(ctx));
}

/**
 * Asks the service to replay the gap since `since`. Never rejects; a failure is logged with what to
 * do. With `credential` (read during the call) the request needs nothing of n8n's webhook call, so a
 * delivery can send it and return without waiting for it.
 */
async function replayGap(
	ctx: IWebhookFunctions,
	now: Date,
	since: string,
	credential?: ReadCredential,
): Promise<void> {
	const webhookId = String((ctx.getWorkflowStaticData('node') as TriggerState).webhookId);
	try {
		// A rate-limited replay is reported, not waited for: Admin → Replay Webhook can ask later.
		await recoverMissedEvents(ctx, now, {
			since,
			webhookId,
			timeoutMs: RECOVERY_TIMEOUT_MS,
			maxRateLimitWait: 0,
			credential,
		});
	} catch (error) {
		ctx.logger.error(
			`Platform Trigger: asking the service to replay the events missed while n8n was down failed (${(error as Error).message}); run Platform Posts → Admin (App-Only) → Replay Webhook Events for webhook ${webhookId} from ${since} to ${now.toISOString()}`,
		);
	}
}

/** The replay request after a restart holds back the run of the delivery that noticed the gap. */
const RECOVERY_TIMEOUT_MS = 30_000;

function respond(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

/** GET: the CRC check. */
export async function answerCrc(
	ctx: IWebhookFunctions,
	now = new Date(),
	startedAt = processStartedAt(),
	memory: DeliveryMemory = processMemory,
): Promise<IWebhookResponseData> {
	const token = (ctx.getQueryData() as IDataObject).crc_token;
	if (!isValidCrcToken(token))
		return respond(ctx, 400, { error: 'crc_token missing or malformed' });
	// The CRC answer cannot be checked here: it uses the kept secret while fresh (secretCache.ts).
	const secret = await readConsumerSecret(ctx, now.getTime());
	if (!secret) {
		ctx.logger.error(
			'Platform Trigger: cannot answer a CRC check: the credential has no consumer secret',
		);
		return respond(ctx, 500, { error: 'not configured' });
	}
	const answer = respond(ctx, 200, { response_token: crcResponseToken(secret, token) });
	const since = (ctx.getWorkflowStaticData('node') as TriggerState).lastReceivedAt;
	if (since && recoveryDue(ctx, startedAt, since, memory)) await replayGap(ctx, now, since);
	return answer;
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
	memory: DeliveryMemory = processMemory,
	clock: Clock = processClock,
): Promise<IWebhookResponseData> {
	const headerName = String(
		ctx.getNodeParameter('options.signatureHeader', DEFAULT_SIGNATURE_HEADER) ||
			DEFAULT_SIGNATURE_HEADER,
	).toLowerCase();
	const raw = await rawBodyOf(ctx);
	if (!raw) {
		ctx.logger.warn('Platform Trigger: a delivery without a readable body was refused');
		return respond(ctx, 400, { error: 'no body' });
	}
	if (raw.length > MAX_BODY_BYTES) return respond(ctx, 413, { error: 'body too large' });
	const signature = ctx.getHeaderData()[headerName];
	if (
		!(await consumerSecretVerifies(ctx, now.getTime(), (s) => verifySignature(s, raw, signature)))
	) {
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
	const version = ctx.getNode().typeVersion;
	const replayMode = ctx.getNodeParameter(
		'options.replayStatus',
		defaultReplayStatus(version),
	) as string;
	const mode = ctx.getNodeParameter('mode', 'activity') as string;
	let events: Array<{ event_type: string; event_id: string }>;
	if (mode === 'stream') {
		// A matching post, or the status of a replay job; activity envelopes are not ours here.
		const post = isStreamDelivery(body as IDataObject)
			? normalizeStreamDelivery(body as IDataObject, now)
			: undefined;
		events = post
			? [post]
			: normalizeDelivery(body as IDataObject, now).filter(
					(e) => isStatusEvent(e) && replayMode !== 'drop',
				);
	} else {
		// Delivered events carry the service's names; two stored values differ from them.
		const selected = selectedEventTypes(ctx).map(wireEventType);
		events = normalizeDelivery(body as IDataObject, now).filter((event) => {
			if (isStatusEvent(event)) return replayMode !== 'drop';
			return selected.includes('*') || selected.includes(event.event_type);
		});
	}
	const key = keyOf(ctx);
	const previous = saved.lastReceivedAt;
	if (previous && recoveryDue(ctx, startedAt, previous, memory)) {
		// The first delivery after a restart asks for the replay of the gap and goes on as any other
		// delivery, without waiting for that request (up to its timeout, longer than the service waits
		// for an answer). The bearer credential is read now, so the request can finish after n8n has
		// ended this call; answering before the run instead, as before, lost the event when the
		// process stopped or n8n failed to start the run in between (the service held a 200 for it).
		const credential = await readBearerCredential(ctx).catch(() => undefined);
		void replayGap(ctx, now, previous, credential);
	}
	const delivery = openDelivery(ctx, key, memory, clock);
	const ids = events.map((e) => e.event_id);
	// The duplicate check and its claim are one synchronous step (see DeliveryMemory.claimNewIds).
	const fresh = memory.claimNewIds(key, saved, ids, now.getTime(), delivery.token);
	const copies = ids.filter((id) => id && !fresh.has(id));
	if (copies.some((id) => memory.outcomeOf(key, id, now.getTime()) === 'pending')) {
		// Another delivery of this process is still starting the run of one of these events: its
		// outcome decides whether this copy is a duplicate or must run.
		const settled = await settleCopies(key, saved, copies, memory, clock, delivery.token, now);
		if (!settled) {
			memory.releaseClaimed(key, fresh, delivery.token);
			memory.answerClosed(key, delivery.token);
			return respond(ctx, 503, { error: 'a copy of these events is still being started' });
		}
		for (const id of settled) fresh.add(id);
	}
	const emitted = events.filter((event) => fresh.delete(event.event_id) || !event.event_id);
	const started = emitted.map((event) => event.event_id).filter(Boolean);
	// Saved as lastReceivedAt by the record's next write (state.ts), not here: a copy changed here would
	// make n8n rewrite the whole static data for every delivery.
	memory.noteReceived(key, now.getTime());
	const workflowData = workflowDataFor(version, replayMode, emitted as unknown as IDataObject[]);
	return answerAfterRunStarts(
		ctx,
		delivery,
		saved,
		started,
		{ ok: true, events: emitted.length },
		workflowData,
	);
}

interface OpenDelivery {
	token: symbol;
	/** True once n8n has read the answer: the run started. */
	read: boolean;
	/** True once an answer was sent (n8n's or this node's). */
	finished: boolean;
	memory: DeliveryMemory;
	clock: Clock;
	key: string;
}

/**
 * Registers a delivery with the process's memory and maps its response's events onto the protocol's:
 * 'finish' (an answer went out) and 'close' without it (the caller hung up). Without response events
 * the delivery cannot say when it is over, so it never holds back a write.
 */
function openDelivery(
	ctx: IWebhookFunctions,
	key: string,
	memory: DeliveryMemory,
	clock: Clock,
): OpenDelivery {
	const res = ctx.getResponseObject() as {
		once?: (event: 'finish' | 'close', listener: () => void) => void;
	};
	if (typeof res.once !== 'function')
		return {
			token: Symbol('unanswerable'),
			read: false,
			finished: false,
			memory,
			clock,
			key,
		};
	const delivery: OpenDelivery = {
		token: memory.answerOpened(key, clock.now()),
		read: false,
		finished: false,
		memory,
		clock,
		key,
	};
	res.once('finish', () => {
		delivery.finished = true;
	});
	res.once('close', () => {
		if (delivery.finished || delivery.read) memory.answerClosed(key, delivery.token);
		else memory.callerHungUp(key, delivery.token, clock.now());
	});
	return delivery;
}

/**
 * Waits (at most COPY_WAIT_MS) until no copy in `copies` is held by a run n8n is still starting, then
 * claims those whose first attempt ended without a run. The ids to run, or undefined while some
 * attempt is still undecided.
 */
async function settleCopies(
	key: string,
	state: TriggerState,
	copies: string[],
	memory: DeliveryMemory,
	clock: Clock,
	token: symbol,
	arrived: Date,
): Promise<string[] | undefined> {
	// The delivery's own time, moved on by the clock (the two are one in n8n; tests set the first).
	const waitStart = clock.now();
	const at = () => arrived.getTime() + clock.now() - waitStart;
	const undecided = () => copies.some((id) => memory.outcomeOf(key, id, at()) === 'pending');
	const timeUp = clock.sleep(COPY_WAIT_MS).then(() => true);
	while (undecided() && !(await Promise.race([timeUp, memory.changed(key).then(() => false)]))) {
		// A claim of the trigger changed: look again.
	}
	if (undecided()) return undefined;
	return [...memory.claimNewIds(key, state, copies, at(), token)];
}

/**
 * Lets n8n answer the delivery once it has started the run, as it does for its own Webhook node: a
 * busy n8n then takes deliveries no faster than it runs them (answering first let runs pile up, and
 * each run in the pile cost about a fifth more CPU). n8n saves the static data just before that
 * answer, but only when the data is marked changed, and starting the run clears that mark: n8n builds
 * a second Workflow over the same static data object to set up the run. n8n reads `webhookResponse`
 * after the run has started and right before it saves, so reading it records this delivery's events
 * as run and, by the record's group commit (state.ts, WRITE_AT_LEAST_EVERY_MS), writes this process's
 * duplicate record into the copy n8n saves (which marks it changed again), or leaves the copy
 * unchanged when another delivery this process is still answering will write it, this delivery's ids
 * included. Until the run starts the events are recorded in this process's memory only: if the process
 * dies before that, the service's retry runs them elsewhere. If n8n answers without reading it (it
 * could not start the run: the database or the queue refused, and the service got a 500), the events
 * were not run and the service sends them again: their claims are released when that answer has been
 * sent, so the retry runs them. A caller that hangs up before any answer (the service's 10 s deadline)
 * releases nothing: the run may still start.
 */
function answerAfterRunStarts(
	ctx: IWebhookFunctions,
	delivery: OpenDelivery,
	state: TriggerState,
	started: string[],
	answer: IDataObject,
	workflowData: INodeExecutionData[][] | undefined,
): IWebhookResponseData {
	const { memory, clock, key, token } = delivery;
	const result: IWebhookResponseData = workflowData ? { workflowData } : {};
	Object.defineProperty(result, 'webhookResponse', {
		enumerable: true,
		get: () => {
			if (!delivery.read) memory.recordStarted(key, state, started, token, clock.now());
			delivery.read = true;
			return answer;
		},
	});
	const res = ctx.getResponseObject() as {
		once?: (event: 'finish', listener: () => void) => void;
	};
	if (started.length && typeof res.once === 'function')
		res.once('finish', () => {
			if (delivery.read) return;
			const released = memory.releaseClaimed(key, started, token);
			if (released.length)
				ctx.logger.warn(
					`Platform Trigger: n8n answered a delivery without starting its run; its ${released.length} event(s) will run when the service sends them again`,
				);
		});
	return result;
}
