import type {
	IDataObject,
	INodeProperties,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { asNodeError, errorInfo } from '../shared/errors';
import { LineReader } from '../shared/httpStream';
import type { PlatformStream } from '../shared/transport';
import {
	CREDENTIAL_TYPES,
	openPlatformStream,
	paginate,
	platformRequest,
} from '../shared/transport';
import { triggerProperties } from './description';
import type { PlatformEvent } from './events';
import { normalizeDelivery, wireEventType } from './events';
import type { PlannedSubscription } from './lifecycle';
import {
	createSubscriptions,
	deleteSubscriptions,
	refuseEarly,
	selectedEventTypes,
	subscriptionInputs,
	subscriptionTag,
} from './lifecycle';
import { claimNewIds, forgetTrigger, persistClaimed, triggerKey } from './state';

/**
 * The activity stream: the Activity events over the app's persistent connection
 * (GET /2/activity/stream) instead of webhook deliveries, for an n8n without a public HTTPS address.
 *
 * - Activation: the Activity subscriptions, made without a webhook (the service then sends their
 *   events to the stream), tagged with this trigger's tag; subscriptions a previous run of the
 *   trigger left (n8n restarted) are adopted, not made twice.
 * - The connection: reconnected with back-off when it drops, is refused, or stays silent longer than
 *   the keep-alive timeout (the service sends a keep-alive line between events).
 * - Catch-up: each (re)connection asks for what was missed since the stream last spoke: backfill_minutes
 *   (1-5) for a gap of up to 5 minutes, start_time for a longer one (after an n8n restart, from the last
 *   event this trigger started a run for).
 * - Exactly once: an event id seen by this activation is dropped in memory (reconnects, catch-up
 *   overlap); every run carries n8n's deduplication key `platform-activity:<workflow>:<node>:<event id>`,
 *   which n8n's database refuses a second time, across restarts and processes.
 * - Deactivation closes the connection and deletes the subscriptions (see REMOVAL_GRACE_MS).
 */

const BEARER = CREDENTIAL_TYPES.appOnly;
const STREAM_PATH = '/2/activity/stream';
const MINUTE = 60_000;
/** The contract's largest backfill_minutes. */
export const MAX_BACKFILL_MINUTES = 5;
/** How far before the last sign of life catch-up starts: covers events the service stamped earlier. */
const CATCH_UP_MARGIN_MS = 30_000;

/**
 * n8n closes a trigger the same way when the workflow is deactivated and when n8n shuts down. The
 * subscriptions are deleted this long after the close: an n8n that is stopping has exited by then
 * (its graceful shutdown waits 30 s by default), so the subscriptions survive a restart, the service
 * keeps their events, and the restarted trigger adopts them and catches up; a deactivated trigger's
 * subscriptions are gone a minute later. Activating the trigger again in this process cancels it.
 */
export const REMOVAL_GRACE_MS = 60_000;

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

/** The Activity mode's fields without their "Trigger On" condition: this node has no mode. */
function activityField(name: string): INodeProperties {
	const field = triggerProperties.find(
		(p) => p.name === name && (p.displayOptions?.show?.mode ?? []).includes('activity'),
	);
	if (!field) throw new Error(`The trigger has no Activity field ${name}`);
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
	...['userAuthentication', 'events', 'user', 'keyword', 'direction'].map(activityField),
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

/** What one trigger keeps in its static data (saved by n8n with each run it starts). */
interface StreamState extends IDataObject {
	/** When this trigger last started a run for an event: where catch-up starts after a restart. */
	streamEventAt?: string;
}

/** The catch-up query for a (re)connection after the stream was last heard at `since`. */
export function catchUpQuery(since: number | undefined, now: number): IDataObject {
	if (since === undefined || !Number.isFinite(since) || since > now) return {};
	const gap = now - since + CATCH_UP_MARGIN_MS;
	if (gap <= MAX_BACKFILL_MINUTES * MINUTE)
		return { backfill_minutes: Math.max(1, Math.ceil(gap / MINUTE)) };
	return {
		start_time: new Date(since - CATCH_UP_MARGIN_MS).toISOString().replace(/\.\d{3}Z$/, 'Z'),
	};
}

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

type IsolateScope = { withIsolate?: <T>(fn: () => Promise<T>) => Promise<T> };

/**
 * Runs `fn` (credentialed requests) with the workflow's expression isolate held. n8n 2.40's expression
 * engine reads a credential only inside an isolate, and n8n holds one for a trigger only while it calls
 * trigger() and the close function: a reconnection or the delayed deletion happens later, so it takes
 * one the way n8n does for the close function. With n8n's legacy evaluator there is none to take.
 */
async function withCredentials<T>(ctx: ITriggerFunctions, fn: () => Promise<T>): Promise<T> {
	const expression = (ctx as unknown as { workflow?: { expression?: IsolateScope } }).workflow
		?.expression;
	if (typeof expression?.withIsolate !== 'function') return await fn();
	return await expression.withIsolate(fn);
}

/** Pending deletions of closed triggers' subscriptions in this process, by trigger. */
const pendingRemoval = new Map<string, { cancelled: boolean }>();

function same(a: unknown, b: unknown): boolean {
	const norm = (v: unknown) =>
		JSON.stringify(
			Object.entries((v ?? {}) as IDataObject)
				.map(([k, x]) => [k, String(x)])
				.sort(),
		);
	return norm(a) === norm(b);
}

/** Our subscriptions on the service (by tag prefix): [id, subscription]. */
async function listTagged(ctx: ITriggerFunctions, prefix: string): Promise<IDataObject[]> {
	const all = await paginate.call(
		ctx,
		{ method: 'GET', path: '/2/activity/subscriptions', credentialType: BEARER },
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

/** Deletes the subscriptions that still carry `tag` (none another run has adopted since). */
async function removeOwn(ctx: ITriggerFunctions, tag: string): Promise<void> {
	const ours = (await listTagged(ctx, tag)).filter((s) => String(s.tag) === tag);
	await deleteSubscriptions(
		ctx,
		ours.map((s) => String(s.subscription_id ?? s.id)),
	);
}

export async function startActivityStream(
	ctx: ITriggerFunctions,
	timings: StreamTimings = DEFAULT_TIMINGS,
): Promise<ITriggerResponse> {
	const manual = ctx.getMode() === 'manual';
	const node = ctx.getNode();
	const workflowId = ctx.getWorkflow().id;
	const key = triggerKey(workflowId, node.id);
	const { planned } = refuseEarly(ctx);
	const options = (ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const keepAliveTimeoutMs = Number(options.keepAliveTimeout) * 1000 || timings.keepAliveTimeoutMs;
	const maxBackoffMs = Number(options.maxBackoff) * 1000 || timings.maxBackoffMs;
	const selected = selectedEventTypes(ctx).map(wireEventType);
	// Manual runs subscribe under a tag of their own: they never adopt or delete the active trigger's.
	const prefix = `${subscriptionTag(ctx)}:${manual ? 't' : 's'}`;
	const tag = `${prefix}${Date.now().toString(36)}`.slice(0, 200);
	const pending = pendingRemoval.get(key);
	if (pending) pending.cancelled = true;
	const ids = await ensureSubscriptions(
		ctx,
		await subscriptionInputs(ctx, planned, { tag }),
		prefix,
		tag,
	);
	ctx.logger.info(
		`Platform Trigger: ${ids.length} activity subscriptions deliver to the activity stream`,
	);

	const saved = ctx.getWorkflowStaticData('node') as StreamState;
	const run: { closed: boolean; stream?: PlatformStream; heardAt?: number } = { closed: false };
	/** Ends every wait of this trigger (back-off, watchdog) when it closes. */
	const closing = new AbortController();
	/** Waits `ms`, or less when the trigger closes meanwhile. */
	const pause = async (ms: number) => await sleep(ms, closing.signal).catch(() => undefined);
	const restartedAt = Date.parse(String(saved.streamEventAt ?? ''));
	if (!manual && Number.isFinite(restartedAt)) run.heardAt = restartedAt;

	const handleLine = (line: string, now: Date) => {
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
			const types = (message.errors as IDataObject[]).map((e) => String(e.type ?? e.title ?? ''));
			ctx.logger.warn(`Platform Trigger: the activity stream reported ${types.join(', ')}`);
			return;
		}
		const events = normalizeDelivery(message, now).filter(
			(e: PlatformEvent) =>
				String(e.tag ?? '').startsWith(prefix) &&
				(selected.includes('*') || selected.includes(e.event_type)),
		);
		const fresh = claimNewIds(
			key,
			{},
			events.map((e) => e.event_id),
			now.getTime(),
		);
		for (const event of events) {
			if (event.event_id && !fresh.delete(event.event_id)) continue;
			persistClaimed(key, {}, [event.event_id]);
			if (!manual) saved.streamEventAt = now.toISOString();
			ctx.emit(
				[[{ json: event }]],
				undefined,
				undefined,
				event.event_id ? deduplicationKey(workflowId, node.id, event.event_id) : undefined,
			);
		}
	};

	const open = async (): Promise<PlatformStream> => {
		const qs = catchUpQuery(run.heardAt, Date.now());
		return await withCredentials(
			ctx,
			async () =>
				await openPlatformStream.call(ctx, {
					path: STREAM_PATH,
					qs,
					credentialType: BEARER,
					idleTimeoutMs: keepAliveTimeoutMs,
				}),
		);
	};

	/** One connection (`opened`, or a new one): resolves when it ends (dropped, stalled or closed). */
	const connectOnce = async (opened?: PlatformStream): Promise<{ heard: boolean }> => {
		const stream = opened ?? (await open());
		if (run.closed) {
			// Closed while the connection was being opened.
			stream.body.destroy?.();
			return { heard: false };
		}
		run.stream = stream;
		let lastByte = Date.now();
		// Open (and caught up to here by the query): the next catch-up starts no earlier than now.
		run.heardAt = lastByte;
		let heard = false;
		let ended = false;
		// The keep-alive watchdog: a silent connection is closed, and the loop reconnects.
		const watchdog = (async () => {
			while (!ended && !run.closed) {
				await pause(Math.min(1000, keepAliveTimeoutMs / 4));
				if (!ended && Date.now() - lastByte > keepAliveTimeoutMs) {
					ctx.logger.warn(
						`Platform Trigger: the activity stream was silent for ${keepAliveTimeoutMs / 1000} s; reconnecting`,
					);
					stream.body.destroy?.();
					return;
				}
			}
		})();
		const reader = new LineReader();
		try {
			for await (const chunk of stream.body) {
				lastByte = Date.now();
				run.heardAt = lastByte;
				heard = true;
				for (const line of reader.push(chunk)) if (line) handleLine(line, new Date(lastByte));
				if (run.closed) break;
			}
		} catch (error) {
			if (!run.closed)
				ctx.logger.warn(
					`Platform Trigger: the activity stream dropped (${(error as Error).message})`,
				);
		} finally {
			ended = true;
			stream.body.destroy?.();
			run.stream = undefined;
		}
		await watchdog;
		return { heard };
	};

	// The first connection is opened before activation ends: n8n holds the expression isolate (which
	// reading the credential needs) until then, and a refused credential fails the activation at once.
	let first: PlatformStream | undefined;
	let firstWait = 0;
	try {
		first = await open();
		// Closed by the close function even if the loop below has not taken it yet.
		run.stream = first;
	} catch (error) {
		const status = errorInfo(error).httpStatus;
		firstWait = status === 429 ? timings.rateLimitBackoffMs : timings.backoffMs;
		if (status === 401 || status === 403) {
			await removeOwn(ctx, tag).catch(() => undefined);
			forgetTrigger(key);
			throw asNodeError(ctx, error);
		}
		ctx.logger.warn(
			`Platform Trigger: the activity stream could not be opened (${(error as Error).message}); retrying`,
		);
	}

	const loop = (async () => {
		let failures = first ? 0 : 1;
		if (firstWait) await pause(firstWait);
		while (!run.closed) {
			let wait: number;
			try {
				const { heard } = await connectOnce(first);
				first = undefined;
				if (heard) failures = 0;
				wait = backoffDelay(failures++, timings.backoffMs, maxBackoffMs);
			} catch (error) {
				first = undefined;
				if (run.closed) break;
				const status = errorInfo(error).httpStatus;
				if (status === 401 || status === 403) {
					// The credential or the app's access: reconnecting will not help. n8n reports it and
					// retries the activation on its own schedule.
					run.closed = true;
					ctx.emitError(error as Error);
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
		closing.abort();
		run.stream?.body.destroy?.();
		// A connection still being opened ends on its own (it is closed as soon as it opens).
		await Promise.race([loop, sleep(5000)]);
		forgetTrigger(key);
		if (manual) {
			await removeOwn(ctx, tag);
			return;
		}
		const removal = { cancelled: false };
		pendingRemoval.set(key, removal);
		void (async () => {
			await sleep(timings.removalGraceMs);
			if (removal.cancelled) return;
			pendingRemoval.delete(key);
			try {
				await withCredentials(ctx, async () => await removeOwn(ctx, tag));
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
