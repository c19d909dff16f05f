import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	isStreamDelivery,
	normalizeDelivery,
	normalizeStreamDelivery,
	wireEventType,
} from '../shared/events';
import {
	crcResponseToken,
	DEFAULT_SIGNATURE_HEADER,
	isValidCrcToken,
	verifySignature,
} from './signature';
import { recoverMissedEvents } from './lifecycle';
import { selectedEventTypes } from '../shared/subscriptions';
import type { DeliveryMemory, TriggerState } from './state';
import { ORPHANED_CLAIM_MS, processMemory, triggerKey } from './state';
import type { ReadCredential } from '../../shared/transport';
import { readBearerCredential } from '../../shared/transport';
import { defaultReplayStatus, isStatusEvent, workflowDataFor } from './outputs';
import { consumerSecretVerifies, keptBearerCredential, readConsumerSecret } from './secretCache';

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
 * delivery n8n saved is older than the process, asks the service to replay the gap from that delivery
 * (once per process start).
 *
 * Only then: a saved delivery newer than the process means one arrived since it started (this process
 * or another one received it), and nothing tells that anything was missed. Replaying anyway (from the
 * process start) re-sent events that had run, and the replay job's status message ran the workflow
 * once more for every activation and for every trigger at every start. The price: with several
 * processes, events that this process answered 200 "n8n is starting up" while its migrations ran (n8n's
 * abstract-server.js, before any webhook call) are not recovered when another process saved a delivery
 * since; a balancer that sends no traffic to a process before its readiness check passes avoids it
 * (docs/production.md).
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
		noteReplayAsked(memory, key, Date.parse(previous), now.getTime());
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
	const replay: ReplayIfNotRun = {
		// A replay job's status message is not an event the service keeps: no replay sends it again,
		// and asking one for it only brings another status message (of that new job) to run.
		ids: emitted.filter((event) => !isStatusEvent(event) && event.event_id).map((e) => e.event_id),
		arrivedAt: now.getTime(),
		clockAtArrival: clock.now(),
		credential: keptBearerCredential(ctx, now.getTime()),
	};
	return answerAfterRunStarts(
		ctx,
		delivery,
		saved,
		started,
		{ ok: true, events: emitted.length },
		workflowData,
		replay,
	);
}

/** What a delivery needs to ask the service for its own events again (askReplayUnlessRun). */
interface ReplayIfNotRun {
	/** The events of the delivery that a replay can send again (its started ids but statuses). */
	ids: string[];
	arrivedAt: number;
	/** The clock's reading then (the two are one in n8n; tests set the first). */
	clockAtArrival: number;
	/** The credential read that verified the delivery, if kept (never logged). */
	credential?: ReadCredential;
}

/** How often a delivery's own replay request is tried (a job running, a rate limit) before it logs. */
const OWN_REPLAY_TRIES = 5;
/** Between two tries of a delivery's own replay request. */
const OWN_REPLAY_AGAIN_MS = 60_000;
/**
 * Per process memory and trigger: the start of the newest replay this process asked for (the restart
 * recovery's or a delivery's own), and when. A copy arriving within REPLAY_COPIES_MS of that request
 * may be one of its copies, as old as its start: a replay asked for such a copy starts there too.
 */
const askedReplays = new WeakMap<DeliveryMemory, Map<string, { from: number; askedAt: number }>>();
const REPLAY_COPIES_MS = 10 * 60_000;

function noteReplayAsked(memory: DeliveryMemory, key: string, from: number, askedAt: number): void {
	const asked = askedReplays.get(memory) ?? new Map<string, { from: number; askedAt: number }>();
	askedReplays.set(memory, asked);
	asked.set(key, { from, askedAt });
}

/** Per process memory and trigger: the deliveries waiting to ask for their own replay. */
const ownReplays = new WeakMap<
	DeliveryMemory,
	Map<string, Array<{ since: number; dueAt: number; ran: () => boolean; asked: boolean }>>
>();

/**
 * The deliveries of a process waiting to ask for their own replay, and the triggers they belong to
 * (for tests and diagnostics): each leaves once its replay is asked, and a trigger with none left
 * leaves too, so that a long-lived process does not keep a list per trigger it ever served.
 */
export function ownReplaysWaiting(memory: DeliveryMemory): {
	triggers: number;
	deliveries: number;
} {
	const byTrigger = ownReplays.get(memory);
	let deliveries = 0;
	for (const waiting of byTrigger?.values() ?? []) deliveries += waiting.length;
	return { triggers: byTrigger?.size ?? 0, deliveries };
}

/**
 * A delivery whose run n8n did not start: n8n answered it without reading the answer (500: the queue
 * or the database refused the run, or a UserError), or its caller hung up (the service's 10 s) and n8n
 * then failed to start it, which n8n tells the trigger nothing about. The service's retries were the
 * only way such an event ran, and the service does not document its retry schedule or how many
 * retries it makes: a service that stops retrying, or whose retries met a copy still held (503),
 * never had the event run. So once ORPHANED_CLAIM_MS has passed since it arrived (a copy
 * may then take its claim over), the process asks the service to replay the minutes from its first
 * arrival (or from the start of the replay it may be a copy of) to now, unless every one of its events
 * has run meanwhile (a retry). Deliveries of one trigger due at the same moment share one request (the
 * service runs one job at a time and refuses another with its conflict problem; such a refusal, or a
 * rate limit, is tried again a minute later, up to OWN_REPLAY_TRIES times, then logged with what to
 * do). Copies the replay brings of events that did run are dropped by the record. Needs the webhook's
 * id and Recover Missed Events on, as the restart recovery does, and the credential read that
 * verified the delivery (n8n has ended the webhook call by then; see replayGap). A process that stops
 * before then leaves the event to its restart recovery (the first delivery after it comes back).
 */
function askReplayUnlessRun(
	ctx: IWebhookFunctions,
	delivery: OpenDelivery,
	replay: ReplayIfNotRun,
): void {
	const { memory, clock, key } = delivery;
	const { credential, ids: started } = replay;
	/** The first arrival of the oldest of these events: where the replay starts. */
	let arrivedAt = replay.arrivedAt;
	for (const id of started)
		arrivedAt = Math.min(arrivedAt, memory.notRunSince(key, id, replay.arrivedAt));
	if (!credential || !started.length) return;
	const asked = askedReplays.get(memory)?.get(key);
	if (asked && replay.arrivedAt - asked.askedAt <= REPLAY_COPIES_MS)
		arrivedAt = Math.min(arrivedAt, asked.from);
	// Measured on the delivery's own time, moved on by the clock.
	const at = () => replay.arrivedAt + clock.now() - replay.clockAtArrival;
	const ran = () => started.every((id) => memory.outcomeOf(key, id, at()) === 'started');
	const waitingByTrigger = ownReplays.get(memory) ?? new Map();
	ownReplays.set(memory, waitingByTrigger);
	const waiting: Array<{ since: number; dueAt: number; ran: () => boolean; asked: boolean }> =
		waitingByTrigger.get(key) ?? [];
	waitingByTrigger.set(key, waiting);
	const mine = { since: arrivedAt, dueAt: replay.arrivedAt + ORPHANED_CLAIM_MS, ran, asked: false };
	waiting.push(mine);
	void (async () => {
		await clock.sleep(Math.max(0, mine.dueAt - at()));
		if (mine.asked) return; // asked with another delivery's request
		// One request for every delivery of the trigger that is due and has not run: the service runs
		// one replay job at a time.
		const due = waiting.filter((w) => w.dueAt <= at() && !w.asked);
		for (const w of due) w.asked = true;
		const rest = waiting.filter((w) => !w.asked);
		waiting.splice(0, waiting.length, ...rest);
		if (!waiting.length && waitingByTrigger.get(key) === waiting) waitingByTrigger.delete(key);
		const notRun = due.filter((w) => !w.ran());
		if (!notRun.length) return;
		const since = Math.min(...notRun.map((w) => w.since));
		noteReplayAsked(memory, key, since, at());
		const webhookId = String((ctx.getWorkflowStaticData('node') as TriggerState).webhookId ?? '');
		for (let tries = 1; ; tries++) {
			try {
				await recoverMissedEvents(ctx, new Date(at()), {
					since: new Date(since).toISOString(),
					webhookId,
					credential,
					timeoutMs: RECOVERY_TIMEOUT_MS,
					maxRateLimitWait: 0,
					onConflict: 'throw',
				});
				return;
			} catch (error) {
				if (tries >= OWN_REPLAY_TRIES) {
					ctx.logger.error(
						`Platform Trigger: n8n did not start the run of a delivery, and asking the service to replay it failed (${(error as Error).message}); run Platform Posts → Admin (App-Only) → Replay Webhook Events for webhook ${webhookId} from ${new Date(since).toISOString()} to ${new Date(at()).toISOString()}`,
					);
					return;
				}
				await clock.sleep(OWN_REPLAY_AGAIN_MS);
			}
		}
	})();
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
	replay: ReplayIfNotRun,
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
		once?: (event: 'finish' | 'close', listener: () => void) => void;
	};
	if (started.length && typeof res.once === 'function')
		// After an answer n8n sent without starting the run, and after a hang-up before any answer.
		res.once('close', () => {
			if (!delivery.read) askReplayUnlessRun(ctx, delivery, replay);
		});
	if (started.length && typeof res.once === 'function')
		res.once('finish', () => {
			if (delivery.read) return;
			const released = memory.releaseClaimed(key, started, token);
			if (released.length)
				ctx.logger.warn(
					`Platform Trigger: n8n answered a delivery without starting its run; its ${released.length} event(s) will run when the service sends them again, or by a replay this process asks for in ${ORPHANED_CLAIM_MS / 1000} s`,
				);
		});
	return result;
}
