import type {
	IDataObject,
	INodeProperties,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { ExecutionCancelledError, sleep, UserError } from 'n8n-workflow';

import { asNodeError, errorInfo } from '../../shared/errors';
import { LineReader, LineTooLongError } from '../../shared/httpStream';
import type { PlatformStream, ReadCredential } from '../../shared/transport';
import {
	CREDENTIAL_TYPES,
	openPlatformStream,
	paginate,
	platformRequest,
	readBearerCredential,
} from '../../shared/transport';
import { activityFields } from '../shared/activityFields';
import type { PlatformEvent } from '../shared/events';
import { ACTIVITY_EVENT_TYPES, normalizeDelivery, wireEventType } from '../shared/events';
import type { PlannedSubscription } from '../shared/subscriptions';
import {
	createSubscriptions,
	deleteSubscriptions,
	refuseEarly,
	selectedEventTypes,
	subscriptionInputs,
	subscriptionTag,
} from '../shared/subscriptions';
import type { SavedPosition } from './streamCore';
import { StreamCore } from './streamCore';

export { catchUpQuery, MAX_BACKFILL_MINUTES } from './streamCore';

/**
 * The activity stream: the Activity events over the app's persistent connection
 * (GET /2/activity/stream) instead of webhook deliveries, for an n8n without a public HTTPS address.
 *
 * - Activation: the Activity subscriptions, made without a webhook (the service then sends their
 *   events to the stream), tagged with this trigger's tag; subscriptions a previous run of the
 *   trigger left (n8n restarted) are adopted, not made twice.
 * - The connection: reconnected with back-off when it drops, is refused, or stays silent longer than
 *   the keep-alive timeout (the service sends a keep-alive line between events).
 * - Catch-up: each (re)connection asks for what was missed since the position (streamCore.ts):
 *   backfill_minutes (1-5) for a gap of up to 5 minutes, start_time for a longer one; once the position
 *   is two minutes old, with an end_time (a bounded catch-up). Keep-alives come on a timer, also inside
 *   a backlog, so they prove nothing: the position moves only when a bounded catch-up's answer ends,
 *   to its end, and never past a run not known to have started. A connection without an end is closed
 *   for a bounded catch-up two minutes after the position (a checkpoint). A cut or a restart before
 *   that asks for the same backlog again.
 * - Exactly once: a copy of an event this trigger already handled is dropped (reconnects, catch-up
 *   overlap). The position and the ids handled near it are in the static data, which n8n saves with
 *   each run it starts, so a restart's catch-up skips what ran even when n8n keeps no execution rows.
 *   Every run also carries n8n's deduplication key `platform-activity:<workflow>:<node>:<event id>`.
 *   A run n8n reports it did not start (emit's donePromise) releases the event, in memory and in the
 *   static data n8n saves next: the stream is asked for it again, and the position does not pass it.
 * - Backpressure: at most MAX_RUNS_IN_PROGRESS runs handed to n8n and not finished; at the bound the
 *   trigger stops reading the connection until one finishes (TCP flow control holds the service back).
 * - Several main instances: a main that leads again takes the position and ids the leader between
 *   saved when they are ahead of its memory.
 * - Editor test runs have subscriptions (tag), memory and position of their own.
 * - Deactivation closes the connection and deletes the subscriptions (see REMOVAL_GRACE_MS).
 */

const BEARER = CREDENTIAL_TYPES.appOnly;
const STREAM_PATH = '/2/activity/stream';

/**
 * n8n closes a trigger the same way when the workflow is deactivated and when n8n shuts down. The
 * subscriptions are deleted this long after the close: an n8n that is stopping has exited by then
 * (its graceful shutdown waits 30 s by default), so the subscriptions survive a restart, the service
 * keeps their events, and the restarted trigger adopts them and catches up; a deactivated trigger's
 * subscriptions are gone a minute later. Activating the trigger again in this process cancels it.
 */
export const REMOVAL_GRACE_MS = 60_000;

/**
 * The longest stream line read (characters): a line still unended past it is dropped with an error in
 * n8n's log, and the connection is opened again (its catch-up sends the events the dropped line cut
 * off). An event line is one post or profile change with its includes, tens of KB at most; 1 MiB is far
 * above that, and caps what one endless line can take from n8n's memory.
 */
export const MAX_LINE_LENGTH = 1024 * 1024;

/**
 * At most this many runs handed to n8n and not finished (their donePromise not settled) at a time. At
 * the bound the trigger stops reading the connection until one finishes: the stream's bytes stay in the
 * socket, and TCP flow control holds the service back (as a webhook delivery waits for its answer).
 * Why: n8n in regular mode starts every emitted run at once, so events that come faster than n8n
 * finishes runs pile up in n8n's memory and on its database connections (bench/results/history.md,
 * 2026-11-29: at 10 events/s, 2 GiB resident, pool timeouts, runs not started). 10 is what one n8n
 * worker runs at once by default (queue mode's concurrency), above the 8 deliveries in flight that the
 * webhook trigger's bench holds without a pile-up. A service that disconnects the slow reader
 * (operational-disconnect, SlowReader) loses nothing: the position never passes an event not read, and
 * the next catch-up sends it again (streamCore.ts). Runs handed over without a donePromise (Engine 2.0,
 * editor test runs) are not counted: n8n never says when they finish.
 */
export const MAX_RUNS_IN_PROGRESS = 10;

export interface StreamTimings {
	/** Silence (no byte, keep-alives included) after which the connection counts as stalled. */
	keepAliveTimeoutMs: number;
	/** First reconnection delay; doubled on each failure in a row up to maxBackoffMs. */
	backoffMs: number;
	maxBackoffMs: number;
	/** A refusal with 429 waits at least this long. */
	rateLimitBackoffMs: number;
	removalGraceMs: number;
}

export const DEFAULT_TIMINGS: StreamTimings = {
	keepAliveTimeoutMs: 60_000,
	backoffMs: 1_000,
	maxBackoffMs: 60_000,
	rateLimitBackoffMs: 60_000,
	removalGraceMs: REMOVAL_GRACE_MS,
};

/** An Activity field without its "Trigger On" condition: this node has no mode. */
function withoutMode(field: INodeProperties): INodeProperties {
	const show = { ...(field.displayOptions?.show ?? {}) };
	delete show.mode;
	const copy: INodeProperties = { ...field };
	delete copy.displayOptions;
	if (Object.keys(show).length) copy.displayOptions = { show };
	return copy;
}

export const activityStreamProperties: INodeProperties[] = [
	{
		displayName:
			'Events come over a connection n8n opens to the service, so n8n needs no public address. Run the workflow on one n8n only.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	...activityFields.map(withoutMode),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Keep-Alive Timeout (Seconds)',
				name: 'keepAliveTimeout',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 600 },
				default: 60,
				description:
					'Reconnect when the stream sends nothing, not even a keep-alive, for this long',
			},
			{
				displayName: 'Max Reconnect Delay (Seconds)',
				name: 'maxBackoff',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 900 },
				default: 60,
				description:
					'The longest wait between reconnection attempts (the wait doubles after each failure)',
			},
		],
	},
];

/** n8n's deduplication key of one event's run (a unique database column, 255 characters at most). */
export function deduplicationKey(workflowId: unknown, nodeId: unknown, eventId: string): string {
	return `platform-activity:${String(workflowId ?? '')}:${String(nodeId ?? '')}:${eventId}`.slice(
		0,
		255,
	);
}

/** Back-off before attempt `failures` + 1: doubling from `base`, at most `max`. */
export function backoffDelay(failures: number, base: number, max: number): number {
	return Math.min(max, base * 2 ** Math.min(failures, 20));
}

/** The static data of one trigger: its position (streamCore.ts), and the field versions before it used. */
interface StreamState extends SavedPosition {
	/** Before the position: when the trigger last started a run (the trigger's clock). */
	streamEventAt?: string;
}

function savedPosition(state: StreamState): SavedPosition {
	if (state.caughtUpTo === undefined && typeof state.streamEventAt === 'string')
		return { caughtUpTo: state.streamEventAt };
	return state;
}

/**
 * The production trigger's decisions in this process, by workflow and node: a workflow saved while
 * active is closed and activated again here, and the new activation goes on where the old one was
 * (n8n saves the static data when a run it started ends, so memory can be ahead of it while runs are in
 * progress). An editor test run never uses this: it has a memory of its own for its one run.
 *
 * Bounded by the triggers active in this process: a closed trigger's entry is removed at once, or when
 * the last run it handed to n8n settles (its record is then in the static data n8n saved with it), unless
 * the trigger was activated again meanwhile (`owner`).
 */
const memory = new Map<string, { core: StreamCore; owner: object }>();

/** How many triggers this process remembers (tests: the map's bound). */
export function streamMemorySize(): number {
	return memory.size;
}

/** What a new n8n process starts with: no memory (tests restart the trigger with it). */
export function forgetStreamMemory(): void {
	memory.clear();
}

/** Pending deletions of closed triggers' subscriptions in this process, by trigger. */
const pendingRemoval = new Map<string, { cancelled: boolean; wait: AbortController }>();

function same(a: unknown, b: unknown): boolean {
	const norm = (v: unknown) =>
		JSON.stringify(
			Object.entries((v ?? {}) as IDataObject)
				.map(([k, x]) => [k, String(x)])
				.sort(),
		);
	return norm(a) === norm(b);
}

/** Our subscriptions on the service (by tag prefix). */
async function listTagged(
	ctx: ITriggerFunctions,
	prefix: string,
	credential?: ReadCredential,
): Promise<IDataObject[]> {
	const all = await paginate.call(
		ctx,
		{ method: 'GET', path: '/2/activity/subscriptions', credentialType: BEARER, credential },
		{ returnAll: true, pageSizeParam: 'max_results', maxPageSize: 100, maxPages: 100 },
	);
	return all.filter((s) => String(s.tag ?? '').startsWith(prefix));
}

/**
 * Makes the service hold exactly the planned subscriptions for this trigger, without a webhook:
 * adopts those a previous run left (retagged with this run's tag), deletes the rest of ours, creates
 * what is missing. Returns the ids.
 */
async function ensureSubscriptions(
	ctx: ITriggerFunctions,
	planned: PlannedSubscription[],
	prefix: string,
	tag: string,
): Promise<string[]> {
	const existing = await listTagged(ctx, prefix);
	const adopted: string[] = [];
	const missing: PlannedSubscription[] = [];
	const free = [...existing];
	for (const plan of planned) {
		const i = free.findIndex(
			(s) =>
				!s.webhook_id &&
				String(s.event_type) === String(plan.input.event_type) &&
				same(s.filter, plan.input.filter),
		);
		if (i === -1) {
			missing.push(plan);
			continue;
		}
		const [found] = free.splice(i, 1);
		adopted.push(String(found.subscription_id ?? found.id));
	}
	await deleteSubscriptions(
		ctx,
		free.map((s) => String(s.subscription_id ?? s.id)),
	);
	for (const id of adopted) {
		// This run's tag: a deletion still pending from an earlier run (another process) leaves it alone.
		await platformRequest.call(ctx, {
			method: 'PUT',
			path: `/2/activity/subscriptions/${encodeURIComponent(id)}`,
			body: { tag },
			credentialType: BEARER,
		});
	}
	if (adopted.length)
		ctx.logger.info(`Platform Trigger: adopted ${adopted.length} activity stream subscriptions`);
	return [...adopted, ...(await createSubscriptions(ctx, missing))];
}

/**
 * Deletes the subscriptions that still carry `tag` (none another run has adopted since), with the
 * credential read by the caller: this runs after trigger() returned.
 */
async function removeOwn(ctx: ITriggerFunctions, tag: string, credential: ReadCredential) {
	const ours = (await listTagged(ctx, tag, credential)).filter((s) => String(s.tag) === tag);
	for (const s of ours)
		await platformRequest.call(ctx, {
			method: 'DELETE',
			path: `/2/activity/subscriptions/${encodeURIComponent(String(s.subscription_id ?? s.id))}`,
			credentialType: BEARER,
			credential,
		});
}

/** The status of a refusal from the service (undefined for anything else). */
function statusOf(error: unknown): number | undefined {
	return errorInfo(error).httpStatus;
}

/**
 * Whether `error` is of n8n-workflow's class `type` (or a subclass): by identity, or by class name when
 * the package loaded a copy of n8n-workflow of its own (npm installs the peer dependency beside it).
 */
function isError(error: unknown, type: abstract new (...args: never[]) => Error): boolean {
	if (error instanceof type) return true;
	for (
		let proto = error ? Object.getPrototypeOf(error) : null;
		proto;
		proto = Object.getPrototypeOf(proto)
	)
		if ((proto as { constructor?: { name?: string } }).constructor?.name === type.name) return true;
	return false;
}

type Deferred = NonNullable<Parameters<ITriggerFunctions['emit']>[2]>;

/** A deferred promise for emit's donePromise: n8n settles it when the run ends, or could not start. */
function donePromise(): Deferred {
	let resolve!: Deferred['resolve'];
	let reject!: Deferred['reject'];
	const promise = new Promise<Awaited<Deferred['promise']>>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject } as Deferred;
}

export async function startActivityStream(
	ctx: ITriggerFunctions,
	timings: StreamTimings = DEFAULT_TIMINGS,
): Promise<ITriggerResponse> {
	const manual = ctx.getMode() === 'manual';
	const node = ctx.getNode();
	const workflowId = ctx.getWorkflow().id;
	const key = `${String(workflowId ?? '')}:${String(node.id ?? '')}`;
	const activatedAt = Date.now();
	// All Events: every type the Events field offers (the webhook trigger's versions 1 and 2 keep
	// twelve for their saved workflows; this node was made after its version 3).
	const { planned } = refuseEarly(ctx, ACTIVITY_EVENT_TYPES);
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const keepAliveTimeoutMs = Number(options.keepAliveTimeout) * 1000 || timings.keepAliveTimeoutMs;
	const maxBackoffMs = Number(options.maxBackoff) * 1000 || timings.maxBackoffMs;
	const selected = selectedEventTypes(ctx).map(wireEventType);
	// Manual runs subscribe under a tag of their own: they never adopt or delete the active trigger's.
	const prefix = `${subscriptionTag(ctx)}:${manual ? 't' : 's'}`;
	const tag = `${prefix}${Date.now().toString(36)}`.slice(0, 200);
	// Only the active trigger takes over a pending deletion of its own subscriptions: an editor test
	// run beside it has other subscriptions (its own tag) and leaves the active trigger's alone.
	if (!manual) {
		const pending = pendingRemoval.get(key);
		if (pending) {
			pending.cancelled = true;
			pending.wait.abort();
		}
	}
	const ids = await ensureSubscriptions(
		ctx,
		await subscriptionInputs(ctx, planned, { tag }),
		prefix,
		tag,
	);
	ctx.logger.info(
		`Platform Trigger: ${ids.length} activity subscriptions deliver to the activity stream`,
	);

	// An editor test run starts from now with a memory of its own and writes no static data: the
	// active trigger's position, ids and pending deletion are not its business.
	const saved = manual ? undefined : (ctx.getWorkflowStaticData('node') as StreamState);
	let core: StreamCore;
	/** This activation, as the owner of the memory entry. */
	const self = {};
	if (saved) {
		const remembered = memory.get(key)?.core;
		// A main instance that leads again remembers its earlier leadership: what the leader between
		// saved (its position and ids, read from the database at this activation) is taken when ahead.
		remembered?.resume(savedPosition(saved));
		core = remembered ?? new StreamCore(savedPosition(saved), activatedAt);
		memory.set(key, { core, owner: self });
	} else {
		core = new StreamCore(undefined, undefined);
	}
	/** Closed: this activation's static data no longer shares the core's record (see save). */
	let detached = false;
	/**
	 * The static data as n8n saves it with the next run it starts (and at the end of activation): the
	 * position and the core's record of ids, handed over as it is, without a copy (issue 53: an event
	 * costs the same however many ids are remembered; nothing runs between an event and this save, so
	 * the record and the position beside it agree whenever n8n saves). Once the trigger is closed, the
	 * core can go on in a new activation of this trigger while n8n still saves this object with the runs
	 * that end: it then gets a copy, which agrees with the position written beside it.
	 */
	const save = () => {
		if (!saved) return;
		delete saved.streamEventAt;
		const record = core.saved();
		if (detached && record.handled) record.handled = record.handled.slice();
		Object.assign(saved, record);
	};
	save();

	const run: { closed: boolean; stream?: PlatformStream } = { closed: false };
	/** A closed trigger's memory goes once no run it handed to n8n is in progress (see `memory`). */
	const forgetIfDone = () => {
		if (run.closed && !core.running && memory.get(key)?.owner === self) memory.delete(key);
	};
	/** Ends every wait of this trigger (back-off, watchdog) when it closes. */
	const closing = new AbortController();
	/** Waits `ms`, or less when the trigger closes meanwhile. */
	const pause = async (ms: number) => await sleep(ms, closing.signal).catch(() => undefined);

	// The credential is read with n8n's public getCredentials at activation and again before each
	// connection (a changed token is picked up), and sent by the transport itself.
	let credential = await readBearerCredential(ctx);

	/** Runs n8n did not start in a row: the reconnection that fetches their copies again backs off. */
	let startFailures = 0;
	let reconnectAsked = false;
	/** Events deferred (MAX_PENDING) on the current connection: the next catch-up sends them again. */
	let deferred = 0;
	/** Closes the current connection (after a back-off): the next one's catch-up re-sends the events. */
	const reconnectForCopies = () => {
		if (reconnectAsked || run.closed) return;
		reconnectAsked = true;
		void (async () => {
			await pause(backoffDelay(Math.max(0, startFailures - 1), timings.backoffMs, maxBackoffMs));
			reconnectAsked = false;
			if (!run.closed && (core.waitingForCopy || deferred)) run.stream?.body.destroy?.();
		})();
	};

	/**
	 * n8n refuses a donePromise for a workflow set to its Engine 2.0 ("cannot run a trigger that waits
	 * for its execution to finish yet"), before starting anything. Such a workflow's events are then
	 * handed over without one: the trigger cannot learn that a run failed to start, and n8n's
	 * deduplication key is what remains.
	 */
	let waitsRefused = false;
	/** Runs handed to n8n with a donePromise not settled yet (MAX_RUNS_IN_PROGRESS). */
	let inProgress = 0;
	/** Wakes the reading paused at the bound (roomForRun). */
	let wake: (() => void) | undefined;
	const finished = () => {
		inProgress--;
		wake?.();
	};
	/** Resolves once a run may be handed to n8n (under MAX_RUNS_IN_PROGRESS) or the trigger closed. */
	const roomForRun = async () => {
		while (inProgress >= MAX_RUNS_IN_PROGRESS && !run.closed)
			await new Promise<void>((resolve) => {
				const go = () => {
					closing.signal.removeEventListener('abort', go);
					wake = undefined;
					resolve();
				};
				wake = go;
				closing.signal.addEventListener('abort', go);
			});
	};
	const handOver = (event: PlatformEvent) =>
		ctx.emit(
			[[{ json: event }]],
			undefined,
			undefined,
			deduplicationKey(workflowId, node.id, event.event_id),
		);

	const settle = (event: PlatformEvent, done: Deferred) => {
		const id = event.event_id;
		done.promise.then(
			() => {
				finished();
				// A run that ended, or a copy n8n refused because its key already has a run.
				startFailures = 0;
				core.started(id);
				save();
				forgetIfDone();
			},
			(error: unknown) => {
				finished();
				// A cancelled run was started (it has its execution); anything else n8n reports here is a
				// run it did not start (it only logs why).
				if (isError(error, ExecutionCancelledError)) {
					core.started(id);
					save();
					forgetIfDone();
					return;
				}
				if (isError(error, UserError)) {
					waitsRefused = true;
					save();
					handOver(event);
					core.started(id);
					forgetIfDone();
					return;
				}
				startFailures++;
				core.notStarted(id);
				// The static data n8n saves at the end of the next run it starts no longer claims the event:
				// a restart before a copy of it ran still runs one.
				save();
				forgetIfDone();
				ctx.logger.warn(
					`Platform Trigger: n8n did not start the run of activity event ${id}; the stream is asked for it again`,
				);
				reconnectForCopies();
			},
		);
	};

	const handleLine = async (line: string, now: number) => {
		// A keep-alive: the connection is alive (the watchdog saw its bytes). The service sends them on a
		// timer, also inside a backlog, so it says nothing of the catch-up (streamCore.ts).
		if (!line) return;
		let body: unknown;
		try {
			body = JSON.parse(line);
		} catch {
			ctx.logger.warn('Platform Trigger: the activity stream sent a line that is not JSON');
			return;
		}
		if (!body || typeof body !== 'object' || Array.isArray(body)) return;
		const message = body as IDataObject;
		if (Array.isArray(message.errors) && !message.data) {
			const problems = message.errors as IDataObject[];
			// The contract's Problem has a type and a title; one without them is named by what it has.
			const types = problems.map((e) =>
				String(e.type ?? e.title ?? e.detail ?? 'an error without a type or title'),
			);
			// The service disconnects this reader (a slow one among the reasons): the answer's end that
			// follows proves nothing, and the next catch-up asks for the same span again.
			if (
				problems.some(
					(e) =>
						String(e.type ?? '').endsWith('/operational-disconnect') ||
						e.disconnect_type !== undefined,
				)
			) {
				core.disconnectReported();
			}
			ctx.logger.warn(`Platform Trigger: the activity stream reported ${types.join(', ')}`);
			return;
		}
		const events = normalizeDelivery(message, new Date(now)).filter(
			(e: PlatformEvent) =>
				String(e.tag ?? '').startsWith(prefix) &&
				(selected.includes('*') || selected.includes(e.event_type)),
		);
		for (const event of events) {
			// At the bound, reading stops here until a run finishes (MAX_RUNS_IN_PROGRESS): the next
			// chunk is not asked for, so the connection's bytes wait in the socket.
			if (event.event_id && !manual && !waitsRefused) await roomForRun();
			if (run.closed) return;
			const arrival = core.event(event.event_id, now);
			if (arrival === 'drop') continue;
			if (arrival === 'defer') {
				if (!deferred++)
					ctx.logger.warn(
						`Platform Trigger: ${core.pending} activity events are waiting for n8n to start or finish their runs; later events are fetched again once they have`,
					);
				reconnectForCopies();
				continue;
			}
			if (!event.event_id || manual) {
				ctx.emit([[{ json: event }]]);
				if (event.event_id) core.started(event.event_id);
				continue;
			}
			// Saved with this run by n8n: after a restart the catch-up skips what ran, without relying on
			// execution rows (which EXECUTIONS_DATA_SAVE_ON_SUCCESS=none deletes).
			save();
			if (waitsRefused) {
				handOver(event);
				core.started(event.event_id);
				continue;
			}
			const done = donePromise();
			inProgress++;
			settle(event, done);
			ctx.emit(
				[[{ json: event }]],
				undefined,
				done,
				deduplicationKey(workflowId, node.id, event.event_id),
			);
		}
	};

	const open = async (): Promise<PlatformStream> => {
		credential = await readBearerCredential(ctx);
		const openedAt = Date.now();
		for (const id of core.expire(openedAt))
			ctx.logger.error(
				`Platform Trigger: activity event ${id} was not run: n8n did not start its run, and the stream did not send it again within 24 hours`,
			);
		const qs = core.query(openedAt);
		const stream = await openPlatformStream.call(ctx, {
			path: STREAM_PATH,
			qs,
			credentialType: BEARER,
			idleTimeoutMs: keepAliveTimeoutMs,
			credential,
		});
		core.opened(openedAt, qs);
		return stream;
	};

	/** One connection (`opened`, or a new one): resolves when it ends (dropped, stalled or closed). */
	const connectOnce = async (
		opened?: PlatformStream,
	): Promise<{ heard: boolean; again?: boolean }> => {
		const stream = opened ?? (await open());
		if (run.closed) {
			// Closed while the connection was being opened.
			stream.body.destroy?.();
			core.closed();
			return { heard: false };
		}
		run.stream = stream;
		deferred = 0;
		let lastByte = Date.now();
		let heard = false;
		let ended = false;
		/** The trigger closed this connection itself (silence, a checkpoint): its end proves nothing. */
		let closedHere = false;
		let checkpoint = false;
		let endedByService = false;
		let proved = false;
		/** Reading waits for a run to finish: the silence is the trigger's own, not the service's. */
		let waiting = false;
		// The keep-alive watchdog: a silent connection is closed, and the loop reconnects.
		const watchdog = (async () => {
			while (!ended && !run.closed) {
				await pause(Math.min(1000, keepAliveTimeoutMs / 4));
				if (!ended && !waiting && Date.now() - lastByte > keepAliveTimeoutMs) {
					ctx.logger.warn(
						`Platform Trigger: the activity stream was silent for ${keepAliveTimeoutMs / 1000} s; reconnecting`,
					);
					closedHere = true;
					stream.body.destroy?.();
					return;
				}
				if (!ended && core.checkpointDue(Date.now())) {
					// A bounded catch-up moves the position (streamCore.ts, CHECKPOINT_MS).
					checkpoint = true;
					closedHere = true;
					stream.body.destroy?.();
					return;
				}
			}
		})();
		const reader = new LineReader(MAX_LINE_LENGTH);
		try {
			for await (const chunk of stream.body) {
				lastByte = Date.now();
				heard = true;
				for (const line of reader.push(chunk)) {
					waiting = true;
					await handleLine(line, lastByte);
					waiting = false;
					// What the service sent meanwhile waits in the socket: its silence starts now.
					lastByte = Math.max(lastByte, Date.now());
					if (run.closed) break;
				}
				if (run.closed) break;
			}
			endedByService = !run.closed && !closedHere;
		} catch (error) {
			if (error instanceof LineTooLongError) {
				// Closed here: its end proves nothing, and the next catch-up sends again what the line cut off.
				closedHere = true;
				ctx.logger.error(
					`Platform Trigger: the activity stream sent a line longer than ${MAX_LINE_LENGTH} characters; it was dropped and the stream is opened again`,
				);
			} else if (!run.closed)
				ctx.logger.warn(
					`Platform Trigger: the activity stream dropped (${(error as Error).message})`,
				);
		} finally {
			ended = true;
			stream.body.destroy?.();
			run.stream = undefined;
			if (endedByService) {
				// A bounded catch-up's answer ended: the position moves to its end.
				proved = core.ended();
				save();
			} else core.closed();
		}
		await watchdog;
		return { heard, again: proved || checkpoint };
	};

	// The first connection is opened before activation ends, so that a refused credential fails the
	// activation at once.
	let first: PlatformStream | undefined;
	let firstWait = 0;
	try {
		first = await open();
		// Closed by the close function even if the loop below has not taken it yet.
		run.stream = first;
	} catch (error) {
		const status = statusOf(error);
		firstWait = status === 429 ? timings.rateLimitBackoffMs : timings.backoffMs;
		if (status === 401 || status === 403) {
			await removeOwn(ctx, tag, credential).catch(() => undefined);
			throw asNodeError(ctx, error);
		}
		ctx.logger.warn(
			`Platform Trigger: the activity stream could not be opened (${(error as Error).message}); retrying`,
		);
	}
	save();

	const loop = (async () => {
		let failures = first ? 0 : 1;
		if (firstWait) await pause(firstWait);
		while (!run.closed) {
			let wait: number;
			try {
				const { heard, again } = await connectOnce(first);
				first = undefined;
				if (heard) failures = 0;
				wait = backoffDelay(failures++, timings.backoffMs, maxBackoffMs);
				// A bounded catch-up that ended, or a checkpoint: the next connection follows at once.
				if (again) wait = 0;
			} catch (error) {
				first = undefined;
				if (run.closed) break;
				const status = statusOf(error);
				if (status === 401 || status === 403) {
					// The credential or the app's access: reconnecting will not help. n8n reports it and
					// activates the trigger again on its own schedule (which reads the credential anew).
					run.closed = true;
					ctx.emitError(asNodeError(ctx, error));
					break;
				}
				wait = backoffDelay(failures++, timings.backoffMs, maxBackoffMs);
				if (status === 429) wait = Math.max(wait, timings.rateLimitBackoffMs);
				ctx.logger.warn(
					`Platform Trigger: the activity stream could not be opened (${(error as Error).message}); retrying in ${Math.round(wait / 1000)} s`,
				);
			}
			if (run.closed) break;
			await pause(wait);
		}
	})();

	const closeFunction = async () => {
		run.closed = true;
		detached = true;
		save();
		closing.abort();
		run.stream?.body.destroy?.();
		// A connection still being opened ends on its own (it is closed as soon as it opens).
		await Promise.race([loop, sleep(5000)]);
		core.closed();
		forgetIfDone();
		if (manual) {
			await removeOwn(ctx, tag, await readBearerCredential(ctx));
			return;
		}
		const removal = { cancelled: false, wait: new AbortController() };
		pendingRemoval.set(key, removal);
		void (async () => {
			await sleep(timings.removalGraceMs, removal.wait.signal).catch(() => undefined);
			if (removal.cancelled) return;
			pendingRemoval.delete(key);
			try {
				await removeOwn(ctx, tag, await readBearerCredential(ctx));
				ctx.logger.info('Platform Trigger: activity stream subscriptions deleted');
			} catch (error) {
				ctx.logger.error(
					`Platform Trigger: deleting the activity stream subscriptions (tag ${tag}) failed: ${(error as Error).message}`,
				);
			}
		})();
	};

	return { closeFunction };
}
