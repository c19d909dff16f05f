/**
 * THE MENU (each behaviour once, with its source; "assumed" where neither the service nor n8n says).
 * The service (platform.md, conventions.md, openapi.json in the shared spec):
 * - S1 delivery: signed POST, acknowledged by a 200 within 10 s (platform.md, Events; conventions.md);
 * - S2 retries: number and schedule unknown: none, a few (two) or many (until acknowledged), delays
 *   drawn (platform.md, Events: "Retry schedule and number of delivery retries: not shown"; the three
 *   policies are assumed);
 * - S3 copies: an event delivered more than once, batches (conventions.md: "Events may be delivered
 *   more than once (retries, replay, one copy per subscribed user)");
 * - S4 replay: POST /2/webhooks/replay re-delivers every event of the minutes asked, up to 24 h back
 *   (platform.md, POST /2/webhooks/replay; openapi.json); its 409 conflict is not generated (assumed
 *   away here; lifecycle.ts's replay request handles it);
 * - S5 forged bodies: anyone can POST to the URL (assumed);
 * - S6 replay status: when a replay job ends the service posts `replay_job_status` to the webhook
 *   (conventions.md, Webhooks); the trigger runs it (outputs.ts); no replay sends it again (assumed)
 *   -> every replay the trigger asks costs a run, so NEEDED holds replays to what the world can
 *   have made it miss; `activated`: the trigger activated while its processes run (no delivery
 *   saved yet), as n8n's activation does for a workflow published while n8n is up.
 * n8n 2.40.7 (paths under node_modules/n8n/dist):
 * - N1 static data read per webhook call, saved after the run started, only when changed
 *   (webhooks/live-webhooks.js:141-148, workflows/workflow-static-data.service.js:31-57);
 * - N2 a save that fails is logged and swallowed: the 200 still goes out
 *   (workflow-static-data.service.js:37-42) -> `saveFailsEvery`;
 * - N3 saves land in any order, the whole row, last writer wins (saveStaticDataById is one UPDATE
 *   of the column, no version) -> `saveDelaysMs`, drawn up to 2 s so that they overtake;
 * - N4 other writers of the row: a run's write-back of its start-time copy at its end
 *   (execution-lifecycle/execution-lifecycle-hooks.js:411-425) and a queue worker's stale copy
 *   (the same hook, lines 488-497) -> the `staleWrite` step;
 * - N5 a run start refused: the queue or the database (webhooks/webhook-helpers.js:793, answered
 *   500) or a UserError of Engine 2.0 / a pre-execute hook (webhook-helpers.js:810) -> `starts`;
 * - N6 a process that comes back answers every request 200 "n8n is starting up. Please wait" until
 *   its migrations end, without a webhook call (abstract-server.js:108-114) -> `migrateMs`;
 * - N7 graceful stop and kill -9 (assumed: n8n's shutdown lets requests in flight finish);
 * - N8 several mains: a leader change adds and removes only non-webhook triggers
 *   (active-workflow-manager.js:704-716, addAllNonWebhookTriggerWorkflows /
 *   removeAllNonWebhookTriggerWorkflows); every main and webhook process serves deliveries, so
 *   several mains are several processes here, and a leader change (or two leaders at once) calls
 *   nothing of this trigger: not generated beyond `processes`;
 * - N9 manual runs (the test URL) keep their static data apart and are never sent the service's
 *   deliveries (webhooks/test-webhooks.js:124, setTestStaticData): not generated.
 *
 * A model of everything the Platform Trigger's delivery protocol depends on, for the explorer
 * (explorer.test.ts): n8n's webhook path as n8n 2.40 runs it, the service that delivers, retries and
 * replays, and one to three webhook processes behind the routing recipe or a plain balancer. It runs
 * the trigger's real code (receiveDelivery, its DeliveryMemory, signature check, replay request) on a
 * simulated clock, so one schedule of hundreds of requests takes a millisecond or two.
 *
 * What is modelled of n8n (its webhook call, per request):
 * - the workflow's static data is read from the database at the start of the request, into a copy of
 *   the request's own;
 * - webhook() runs; an answer it sends itself (refusals, the first delivery after a restart) is sent
 *   and the copy saved when it changed;
 * - otherwise, with workflow data, n8n starts the run (it takes a while, may take longer than the
 *   service waits, or fails: the database or the queue refuses), which clears the copy's change mark;
 *   once started, n8n reads the answer, saves the copy when it changed since, and sends the answer; a
 *   run that failed to start is answered 500 without reading the answer or saving anything;
 * - without workflow data n8n reads the answer, saves the copy when it changed, and answers;
 * - saving the copy overwrites the whole row (the last writer wins) and takes a moment, during which
 *   other requests still read the older row;
 * - a graceful stop refuses new requests and lets those in flight finish; kill -9 ends them at once
 *   (their runs that had started stay started); a stopped process comes back with empty memory.
 *
 * What is modelled of the service:
 * - each event is delivered in a signed body, alone or in a batch with another event, sometimes twice
 *   at once; forged bodies (bad signature) arrive too;
 * - an attempt not answered 200 within 10 s (refused, 4xx/5xx, no answer) is sent again after a
 *   delay, the same bytes, until one is answered 200;
 * - a replay request re-delivers every event the service sent in the minutes asked for.
 */
import { createHmac } from 'node:crypto';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import type { Clock } from '../../../nodes/PlatformTrigger/receive';
import { receiveDelivery } from '../../../nodes/PlatformTrigger/receive';
import type { TriggerState } from '../../../nodes/PlatformTrigger/state';
import {
	DeliveryMemory,
	idHash,
	ORPHANED_CLAIM_MS,
	persistedIds,
} from '../../../nodes/PlatformTrigger/state';

export const SECRET = 'explorer-consumer-secret';
const DEADLINE_MS = 10_000;
const WORKFLOW_ID = 'wf-explorer';
const NODE_ID = 'node-explorer';
const MINUTE = 60_000;

/** One thing that happens in a schedule, at a time (ms after the start). */
export type Step =
	| { at: number; kind: 'event'; batchWith: boolean; twice: boolean }
	| { at: number; kind: 'forged' }
	| { at: number; kind: 'stop'; process: number; downMs: number }
	| { at: number; kind: 'kill'; process: number; downMs: number }
	/** N4: another writer saves the row as it was `ageMs` ago (a run's write-back, a queue worker). */
	| { at: number; kind: 'staleWrite'; ageMs: number };

/** How n8n fares with the run starts of a schedule, in order of the starts. */
export interface StartFate {
	/** How long starting the run takes (ms). */
	delayMs: number;
	fails: boolean;
}

export interface Schedule {
	processes: number;
	/** The routing recipe (every copy of an event to one process) or a plain balancer. */
	routing: boolean;
	/**
	 * Account Activity bodies (an account's events, batched as the service likes; the recipe routes by
	 * the account) instead of Activity bodies (one event each; routed by the event id).
	 */
	accountActivity: boolean;
	steps: Step[];
	/** Run starts take these, in turn; every later start succeeds at once. */
	starts: StartFate[];
	/** The same for the runs of replay status messages alone (S6); none given: all succeed. */
	statusStarts?: StartFate[];
	/** The service's retry delays (ms), in turn (cycled). */
	retryDelaysMs: number[];
	/** How long saving the static data takes (ms), in turn (cycled). */
	saveDelaysMs: number[];
	/** S2: how often the service sends a body again (undocumented). */
	retries?: 'none' | 'few' | 'many';
	/** N2: every k-th save fails and n8n swallows it (0: none fails). */
	saveFailsEvery?: number;
	/** N6: how long a process that comes back answers 200 "starting up" (ms). */
	migrateMs?: number;
	/**
	 * The trigger is activated at 0 while its processes have run for ten minutes (no delivery saved
	 * yet); otherwise it was active before they (re)started at 0, its last delivery saved 5 min before.
	 */
	activated?: boolean;
}

export interface Outcome {
	/** Runs per event id, production. */
	runs: Map<string, number>;
	/** The events the service created (forged ones excluded). */
	events: string[];
	/**
	 * Per event, how many of its runs after the first are excused by the documented windows (the rule,
	 * stated once: see EXCUSES at the end of runSchedule). Only a later run is ever excused, never the
	 * earlier one of a pair.
	 */
	excused: Map<string, number>;
	/** Events the invariants allow to be lost (see LOSSES in violation). */
	mayBeLost: Set<string>;
	/**
	 * Replays the trigger asked with nothing the world could have made it miss (see NEEDED): each one
	 * re-sends events that ran, and its job's status message (S6) runs the workflow once more.
	 */
	needlessReplays: string[];
	/** Runs of replay job status messages (S6), per status id. */
	statusRuns: Map<string, number>;
	log: string[];
}

interface Timer {
	at: number;
	seq: number;
	fn: () => void;
}

/** A virtual clock and timer queue: nothing in a schedule waits for real time. */
class Loop {
	now = 0;
	private seq = 0;
	private timers: Timer[] = [];

	at(at: number, fn: () => void): void {
		this.timers.push({ at: Math.max(at, this.now), seq: this.seq++, fn });
	}

	after(ms: number, fn: () => void): void {
		this.at(this.now + ms, fn);
	}

	/** How many timers ran (for the explorer's own cost). */
	ran = 0;

	/** Runs timers in time order, letting every promise settle between two, until none is left. */
	async run(limit: number): Promise<void> {
		for (let steps = 0; steps < limit; steps++, this.ran++) {
			await settle();
			if (!this.timers.length) return;
			let next = 0;
			for (let i = 1; i < this.timers.length; i++) {
				const a = this.timers[i];
				const b = this.timers[next];
				if (a.at < b.at || (a.at === b.at && a.seq < b.seq)) next = i;
			}
			const [timer] = this.timers.splice(next, 1);
			this.now = timer.at;
			timer.fn();
		}
		throw new Error('the schedule did not settle');
	}
}

/** Lets every pending promise chain run (the trigger awaits only promises that are already settled). */
async function settle(): Promise<void> {
	// Node runs every queued promise reaction before the next macrotask.
	// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code, not shipped
	await new Promise<void>((resolve) => setImmediate(resolve));
}

interface Delivery {
	/** The events of this body (ids), in order. */
	ids: string[];
	/** What the routing recipe hashes: the event id, or the account. */
	routeKey: string;
	raw: Buffer;
	signature: string;
	attempts: number;
	/** Set once the service got a 200 for this body. */
	acked: boolean;
	/** Sent by someone else than the service: sent once, never retried. */
	forged: boolean;
	/** A copy the service's replay sent: the process life that asked for that replay. */
	replayOf?: { process: number; generation: number };
}

interface Process {
	index: number;
	memory: DeliveryMemory;
	startedAt: number;
	up: boolean;
	accepting: boolean;
	/** Requests in flight (their cancel functions run on kill -9). */
	inflight: Set<Request>;
	/** Webhook calls n8n has not finished (run starts included): a graceful stop waits for them. */
	busy: number;
	generation: number;
	/** N6: until when this process answers "starting up" (ms on the loop). */
	migratingUntil: number;
}

interface Request {
	process: Process;
	generation: number;
	connected: boolean;
	answered: boolean;
	finishListeners: Array<() => void>;
	closeListeners: Array<() => void>;
	/** Sends an answer with this status (once). */
	answer: (code: number) => void;
	/** kill -9: the connection is reset. */
	kill: () => void;
	arrivedAt: number;
	/** The ids the row had lost to n8n (lostToFault) when this request's copy was read. */
	lostWhenRead?: Set<string>;
	/** Its body's replay, if a replay sent it (see Delivery). */
	replayOf?: { process: number; generation: number };
}

function cycle<T>(list: T[], i: number): T {
	return list[i % list.length];
}

function sign(raw: Buffer, secret = SECRET): string {
	return `sha256=${createHmac('sha256', secret).update(raw).digest('base64')}`;
}

/** What a test may change in the world of a schedule (nothing, by default). */
export interface WorldOptions {
	/**
	 * Each process's memory at every (re)start: a test passes a subclass of DeliveryMemory with a known
	 * bug put back, to show that the explorer finds it.
	 */
	memory?: () => DeliveryMemory;
}

/** Runs one schedule to its end and reports what ran. */
export async function runSchedule(
	schedule: Schedule,
	options: WorldOptions = {},
): Promise<Outcome> {
	const loop = new Loop();
	const t0 = Date.parse('2026-06-01T12:00:00Z');
	/** A process's clock: its timers die with the process. */
	const clockOf = (p: Process): Clock => ({
		now: () => t0 + loop.now,
		sleep: async (ms) =>
			await new Promise<void>((resolve) =>
				loop.after(ms, () => {
					if (p.up) resolve();
				}),
			),
	});
	// Lines are kept as their parts and joined only when a schedule fails (most never are read).
	const lines: Array<[number, () => string]> = [];
	const say = (line: string | (() => string)) =>
		lines.push([loop.now, typeof line === 'string' ? () => line : line]);
	const wall = () => new Date(t0 + loop.now);

	// The database row of the workflow's static data (the trigger's node data), as n8n stores it.
	let row = JSON.stringify(
		(schedule.activated
			? { webhookId: 'wh-1' }
			: {
					webhookId: 'wh-1',
					lastReceivedAt: new Date(t0 - 5 * MINUTE).toISOString(),
				}) satisfies TriggerState,
	);

	/** The row as it was, for other writers' stale copies (N4). */
	const history: Array<{ at: number; row: string; version: number }> = [{ at: 0, row, version: 0 }];
	const rowIds = (text: string) =>
		new Set(persistedIds(JSON.parse(text) as TriggerState).map(([h]) => h));
	/**
	 * Ids (hashes) the row lost where its writer could not have known them: a save that failed and was
	 * swallowed (N2); a save whose copy was read before the id entered the row, landing after it (N3:
	 * concurrent requests of several processes, or one process's older save landing last); another
	 * writer's stale copy (N4). An id that a writer had read and then dropped is the trigger's fault
	 * and stays out. Cleared when a save brings the id back.
	 */
	const lostToFault = new Set<string>();
	/** Runs (their ids) started while their id was in lostToFault (see EXCUSES). */
	const faultRuns: string[] = [];
	/** Events some delivery of which met an outage: no process open, a kill, "starting up" (N6). */
	const outage = new Set<string>();
	/**
	 * Per process index: when signed deliveries reached it, and in which life (its restart recovery
	 * runs at the first one of each life).
	 */
	const calls: Array<Array<{ at: number; generation: number }>> = [];
	/** Events answered "starting up" by a process life, and when. */
	const startupAcks: Array<{
		ids: string[];
		process: number;
		generation: number;
		at: number;
		lifeFrom: number;
	}> = [];
	/**
	 * Per process life (`index:generation`): the time of the last delivery in the row that its first
	 * signed call read. The trigger's restart recovery replays only a gap before the life's start
	 * (receive.ts, recoveryDue); a newer time means another process saved a delivery since (see LOSSES).
	 */
	const firstCallRead = new Map<string, string | undefined>();
	/**
	 * Per process life (`index:generation`): when a body with events (not a replay status) met a run
	 * start n8n refused (N5) or a caller that hung up (S1's 10 s): what the trigger may have missed.
	 */
	const troubles = new Map<string, number[]>();
	const trouble = (p: Process, generation: number, ids: string[]) => {
		if (!ids.some((id) => !isStatusId(id))) return;
		const life = `${p.index}:${generation}`;
		troubles.set(life, [...(troubles.get(life) ?? []), loop.now]);
	};
	/** Every replay the trigger asked: by which process life, when. */
	const replaysAsked: Array<{ process: number; generation: number; at: number; job: string }> = [];
	let jobSeq = 0;
	/** Run starts n8n refused (N5), with the process life and when the delivery arrived. */
	const failedStarts: Array<{
		ids: string[];
		process: Process;
		arrivedAt: number;
		at: number;
		replayOf?: { process: number; generation: number };
	}> = [];
	/** When each process life ended (a graceful stop's end, or kill -9). */
	const lifeEnded = new Map<Process, number>();
	/** When the service first sent each event. */
	const firstSent = new Map<string, number>();
	let saveCount = 0;
	/** The row's version, and the version at which each id (hash) last entered it. */
	let version = 0;
	const entered = new Map<string, number>();
	/** The row version each copy of a request was read at. */
	const baseOf = new WeakMap<object, number>();
	const land = (text: string, base: number) => {
		const before = rowIds(row);
		const after = rowIds(text);
		row = text;
		version++;
		history.push({ at: loop.now, row, version });
		for (const h of before)
			if (!after.has(h)) {
				if ((entered.get(h) ?? 0) > base) lostToFault.add(h);
				entered.delete(h);
			}
		for (const h of after)
			if (!before.has(h)) {
				entered.set(h, version);
				lostToFault.delete(h);
			}
	};
	const runs = new Map<string, number>();
	const runStarts: Array<{
		id: string;
		process: number;
		generation: number;
		arrivedAt: number;
		at: number;
	}> = [];
	/** Runs started shortly before a kill -9 of their process (see EXCUSES). */
	const killedBeforeSave: string[] = [];
	const events: string[] = [];
	/** Every body the service sent, with when (for replays). */
	const sent: Array<{ at: number; ids: string[] }> = [];
	let startIndex = 0;
	let statusStartIndex = 0;
	let retryIndex = 0;
	let saveIndex = 0;

	const processes: Process[] = [];
	const boot = (index: number): Process => ({
		index,
		memory: options.memory?.() ?? new DeliveryMemory(),
		// A first life of an activated schedule started ten minutes before the activation.
		startedAt: t0 + loop.now - (schedule.activated && !processes[index] ? 10 * MINUTE : 0),
		migratingUntil: processes[index] ? loop.now + (schedule.migrateMs ?? 0) : 0,
		up: true,
		accepting: true,
		inflight: new Set(),
		busy: 0,
		generation: (processes[index]?.generation ?? 0) + 1,
	});
	for (let i = 0; i < schedule.processes; i++) processes.push(boot(i));

	const hash = (text: string) => {
		let h = 0;
		for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
		return h;
	};
	let spread = 0;
	/** The process a body goes to: by its first event's id (the recipe), or round robin. */
	const route = (routeKey: string): Process | undefined => {
		const open = processes.filter((p) => p.up && p.accepting);
		if (!open.length) return undefined;
		if (!schedule.routing) return open[spread++ % open.length];
		// Consistent hashing: the event's own process when it takes requests, else the next one.
		const first = hash(routeKey) % processes.length;
		for (let k = 0; k < processes.length; k++) {
			const p = processes[(first + k) % processes.length];
			if (p.up && p.accepting) return p;
		}
		return undefined;
	};

	const save = (p: Process, generation: number, copy: TriggerState, then: () => void) => {
		const text = JSON.stringify(copy);
		const base = baseOf.get(copy) ?? version;
		const every = schedule.saveFailsEvery ?? 0;
		const fails = every > 0 && ++saveCount % every === 0;
		loop.after(cycle(schedule.saveDelaysMs, saveIndex++), () => {
			if (!p.up || p.generation !== generation) return; // killed before the write landed
			if (fails) {
				// N2: logged and swallowed; the answer goes out as if saved.
				say(`P${p.index} save failed (swallowed)`);
				for (const h of rowIds(text)) if (!rowIds(row).has(h)) lostToFault.add(h);
			} else {
				if (base < version) say(`P${p.index} saves a copy read at row v${base} over v${version}`);
				land(text, base);
			}
			then();
		});
	};

	const retry = (d: Delivery) => {
		if (d.forged) return;
		// S2: a service that does not retry, or gives up after two retries.
		if (schedule.retries === 'none' || (schedule.retries === 'few' && d.attempts >= 3)) {
			say(() => `service gives up on ${d.ids.join(',')}`);
			return;
		}
		// Backing off, as services do: the schedule's delays, doubled after every 4 attempts.
		const factor = 2 ** Math.min(Math.floor(d.attempts / 4), 6);
		loop.after(cycle(schedule.retryDelaysMs, retryIndex++) * factor, () => attempt(d));
	};

	/** One attempt of the service to deliver a body, with its 10 s deadline. */
	const attempt = (d: Delivery) => {
		if (d.acked) return;
		d.attempts++;
		if (d.attempts > 40) throw new Error(`body ${d.ids.join(',')} never acknowledged`);
		const p = route(d.routeKey);
		if (!p) {
			for (const id of d.ids) outage.add(id);
			retry(d);
			return;
		}
		if (p.migratingUntil > loop.now) {
			// N6: answered 200 before any webhook call; the service counts it delivered.
			say(() => `P${p.index} answers ${d.ids.join(',')} "starting up"`);
			if (!d.forged) {
				for (const id of d.ids) outage.add(id);
				startupAcks.push({
					ids: d.ids,
					process: p.index,
					generation: p.generation,
					at: loop.now,
					lifeFrom: p.startedAt - t0,
				});
			}
			d.acked = true;
			return;
		}
		// A signed delivery's call (the restart recovery runs only after the signature verifies).
		if (!d.forged) (calls[p.index] ??= []).push({ at: loop.now, generation: p.generation });
		const req: Request = {
			process: p,
			generation: p.generation,
			connected: true,
			answered: false,
			finishListeners: [],
			closeListeners: [],
			answer: () => undefined,
			kill: () => undefined,
			arrivedAt: loop.now,
			replayOf: d.replayOf,
		};
		p.inflight.add(req);
		let status: number | undefined;
		const hangUp = () => {
			if (!req.connected) return;
			req.connected = false;
			for (const l of req.closeListeners.splice(0)) l();
		};
		req.answer = (code: number) => {
			if (req.answered) return;
			req.answered = true;
			p.inflight.delete(req);
			if (!req.connected) return; // nobody listens: nothing is sent, no 'finish'
			for (const l of req.finishListeners.splice(0)) l();
			for (const l of req.closeListeners.splice(0)) l();
			req.connected = false;
			if (code === 200) {
				if (!d.acked) say(() => `ack ${d.ids.join(',')} by P${p.index}`);
				d.acked = true;
			} else retry(d);
		};
		loop.after(DEADLINE_MS, () => {
			if (req.connected && !req.answered) {
				say(() => `hang up ${d.ids.join(',')} at P${p.index}`);
				hangUp();
				trouble(p, req.generation, d.ids);
				retry(d);
			}
		});
		const res = {
			status(code: number) {
				status = code;
				return res;
			},
			json() {
				req.answer(status ?? 200);
				return res;
			},
			once(event: string, listener: () => void) {
				if (event === 'finish') req.finishListeners.push(listener);
				if (event === 'close') req.closeListeners.push(listener);
				return res;
			},
		};
		req.kill = () => {
			// The connection is reset: the service counts no answer and sends the body again.
			// Its run, if not started yet, never starts: an outage for this body's events.
			for (const id of d.ids) outage.add(id);
			if (req.connected && !req.answered) {
				req.connected = false;
				req.answered = true;
				retry(d);
			}
		};
		p.busy++;
		void handle(p, req, d, res)
			.catch((error: Error) => {
				say(`webhook() threw ${error.message}`);
				req.answer(500);
				return false;
			})
			.then((running) => {
				if (!running) p.busy--;
			});
	};

	/** n8n's webhook call for one request at process `p`. */
	/** True when a run start is still to come (the process stays busy until it is decided). */
	const handle = async (
		p: Process,
		req: Request,
		d: Delivery,
		res: IDataObject,
	): Promise<boolean> => {
		const generation = req.generation;
		const alive = () => p.up && p.generation === generation;
		// n8n's static data object marks itself changed on any write; starting a run clears the mark.
		const mark = { changed: false };
		const copy = new Proxy(JSON.parse(row) as TriggerState, {
			set(target, property, value) {
				mark.changed = true;
				return Reflect.set(target, property, value);
			},
			deleteProperty(target, property) {
				mark.changed = true;
				return Reflect.deleteProperty(target, property);
			},
		});
		baseOf.set(copy, version);
		const life = `${p.index}:${generation}`;
		if (!d.forged && !firstCallRead.has(life)) firstCallRead.set(life, copy.lastReceivedAt);
		if (lostToFault.size) req.lostWhenRead = new Set(lostToFault);
		const ctx = webhookContext(copy, d, res, requestReplay(p));
		say(() => `P${p.index} receives ${d.ids.join(',')} attempt ${d.attempts}`);
		const result: IWebhookResponseData = await receiveDelivery(
			ctx,
			wall(),
			p.startedAt,
			p.memory,
			clockOf(p),
		);
		if (!alive()) return false;
		if (req.answered) {
			// Answered by the trigger itself (a refusal, or the first delivery after a restart).
			if (mark.changed) save(p, generation, copy, () => undefined);
			if (!result.workflowData) return false;
			startRun(p, req, result, copy, mark, generation, true);
			return true;
		}
		if (result.workflowData) {
			startRun(p, req, result, copy, mark, generation, false);
			return true;
		}
		void result.webhookResponse; // n8n reads the answer
		if (mark.changed) save(p, generation, copy, () => req.answer(200));
		else req.answer(200);
		return false;
	};

	/** n8n starts the run of a webhook call's workflow data: it takes a while, and may fail. */
	const startRun = (
		p: Process,
		req: Request,
		result: IWebhookResponseData,
		copy: TriggerState,
		mark: { changed: boolean },
		generation: number,
		answeredAlready: boolean,
	) => {
		// Faults are finite (or nothing could be promised): after the schedule's list, starts succeed.
		// A replay status's run takes its fate from its own list (kept schedules keep their starts).
		const statusOnly = (result.workflowData ?? [])
			.flat()
			.every((item) => isStatusId(String(item.json.event_id ?? '')));
		const fate = (statusOnly
			? schedule.statusStarts?.[statusStartIndex++]
			: schedule.starts[startIndex++]) ?? { delayMs: 10, fails: false };
		loop.after(fate.delayMs, () => {
			if (!p.up || p.generation !== generation) return;
			p.busy--;
			if (fate.fails) {
				say(() => `run start failed at P${p.index}`);
				const failed = (result.workflowData ?? []).flat().map((item) => {
					const payload = (item.json.payload ?? {}) as IDataObject;
					return String(payload.id_str ?? payload.id ?? item.json.event_id ?? '');
				});
				failedStarts.push({
					ids: failed,
					process: p,
					arrivedAt: req.arrivedAt,
					at: loop.now,
					replayOf: req.replayOf,
				});
				trouble(p, generation, failed);
				if (!answeredAlready) req.answer(500);
				return;
			}
			// Every output: the events, and replay statuses on the Status output (S6).
			const items = (result.workflowData ?? []).flat();
			for (const item of items) {
				const payload = (item.json.payload ?? {}) as IDataObject;
				const id = String(payload.id_str ?? payload.id ?? item.json.event_id ?? '');
				runs.set(id, (runs.get(id) ?? 0) + 1);
				// The record holds the trigger's event id (for Account Activity not the post's id).
				const hash = idHash(String(item.json.event_id ?? id));
				if (lostToFault.has(hash) || req.lostWhenRead?.has(hash)) faultRuns.push(id);
				runStarts.push({
					id,
					process: p.index,
					generation,
					arrivedAt: req.arrivedAt,
					at: loop.now,
				});
				say(() => `run ${id} at P${p.index}`);
			}
			if (answeredAlready) return;
			mark.changed = false;
			void result.webhookResponse; // n8n reads the answer once the run has started
			if (mark.changed) save(p, generation, copy, () => req.answer(200));
			else req.answer(200);
		});
	};

	/**
	 * The service's replay: every body sent in the minutes asked for, delivered again a bit later, then
	 * the job's status message (S6). Returns the job's id.
	 */
	const requestReplay = (p: Process) => (from: string, to: string) => {
		const job = `job-${++jobSeq}`;
		const parse = (stamp: string) =>
			Date.UTC(
				Number(stamp.slice(0, 4)),
				Number(stamp.slice(4, 6)) - 1,
				Number(stamp.slice(6, 8)),
				Number(stamp.slice(8, 10)),
				Number(stamp.slice(10, 12)),
			);
		const fromMs = parse(from) - t0;
		const toMs = parse(to) + MINUTE - t0;
		if (!p.up) return job; // the process is gone: its request never left
		const bodies = sent.filter((s) => s.at >= fromMs && s.at < toMs);
		say(`P${p.index} asks a replay ${from}-${to}: ${bodies.length} bodies (${job})`);
		replaysAsked.push({ process: p.index, generation: p.generation, at: loop.now, job });
		loop.after(2_000, () => {
			for (const s of bodies)
				deliver(s.ids, false, false, { process: p.index, generation: p.generation });
		});
		loop.after(2_500, () => deliverStatus(job));
		return job;
	};

	const deliver = (
		ids: string[],
		record: boolean,
		forged = false,
		replayOf?: { process: number; generation: number },
	): void => {
		if (!schedule.accountActivity && ids.length > 1) {
			// Activity bodies carry one event each: a batch is its bodies sent at the same instant.
			for (const id of ids) deliver([id], record, forged, replayOf);
			return;
		}
		const body = schedule.accountActivity
			? {
					for_user_id: 'u1',
					tweet_create_events: ids.map((id) => ({ id_str: id, text: 'explored' })),
				}
			: { data: { event_uuid: ids[0], event_type: 'post.create', payload: { id: ids[0] } } };
		const raw = Buffer.from(JSON.stringify(body));
		const d: Delivery = {
			ids,
			routeKey: schedule.accountActivity ? 'u1' : ids[0],
			raw,
			signature: forged ? sign(raw, 'not-the-secret') : sign(raw),
			attempts: 0,
			acked: false,
			forged,
			replayOf,
		};
		if (record) sent.push({ at: loop.now, ids });
		for (const id of ids) if (!firstSent.has(id)) firstSent.set(id, loop.now);
		attempt(d);
	};

	/**
	 * S6: the service posts a replay job's status message to the webhook when the job ends
	 * (conventions.md: `{"replay_job_status":{"webhook_id","job_state":"Complete"|"Incomplete",
	 * "job_state_description","job_id"}}`), signed and retried as any delivery (assumed). It is not an
	 * event the service keeps: no replay sends it again (assumed; platform.md says a replay re-delivers
	 * "events delivered or attempted").
	 */
	const deliverStatus = (job: string) => {
		const body = {
			replay_job_status: {
				webhook_id: 'wh-1',
				job_state: 'Complete',
				job_state_description: 'Job completed successfully',
				job_id: job,
			},
		};
		const raw = Buffer.from(JSON.stringify(body));
		attempt({
			ids: [`replay:${job}:complete`],
			routeKey: job,
			raw,
			signature: sign(raw),
			attempts: 0,
			acked: false,
			forged: false,
		});
	};

	const webhookContext = (
		copy: TriggerState,
		d: Delivery,
		res: IDataObject,
		replay: (from: string, to: string) => string,
	): IWebhookFunctions => {
		const parameters: IDataObject = {
			mode: schedule.accountActivity ? 'accountActivity' : 'activity',
			events: ['post.create'],
			accountEvents: ['post.create'],
			'options.signatureHeader': 'x-platform-webhooks-signature',
			'options.recoverMissedEvents': true,
		};
		const ctx = {
			getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
			getNode: () => ({
				id: NODE_ID,
				name: 'Platform Trigger',
				typeVersion: 3,
				type: 'n8n-nodes-platform.platformTrigger',
				credentials: { platformBearerApi: { id: 'cred-1', name: 'bearer' } },
			}),
			getWorkflow: () => ({ id: WORKFLOW_ID }),
			getWorkflowStaticData: () => copy,
			getRequestObject: () => ({ rawBody: d.raw }),
			getResponseObject: () => res,
			getHeaderData: () => ({ 'x-platform-webhooks-signature': d.signature }),
			getQueryData: () => ({}),
			getCredentials: async () => ({
				consumerSecret: SECRET,
				bearerToken: 'explorer-token',
				baseUrl: 'https://api.explorer.local',
			}),
			logger: {
				info: () => undefined,
				debug: () => undefined,
				warn: (m: string) => say(`warn ${m}`),
				error: (m: string) => say(`error ${m}`),
			},
			helpers: {
				httpRequest: async (options: IDataObject) => await replayAnswer(options),
				httpRequestWithAuthentication: async (_type: string, options: IDataObject) =>
					await replayAnswer(options),
			},
		};
		/** The service's answer to the trigger's one request here, the replay (a job id). */
		const replayAnswer = async (options: IDataObject) => {
			const body = (options.body ?? {}) as IDataObject;
			say(() => `http ${String(options.method)} ${String(options.url)}`);
			const job = String(options.url).endsWith('/2/webhooks/replay')
				? replay(String(body.from_date), String(body.to_date))
				: 'none';
			return { statusCode: 200, headers: {}, body: { data: { job_id: job } } };
		};
		return ctx as unknown as IWebhookFunctions;
	};

	let eventSeq = 0;
	for (const step of schedule.steps) {
		loop.at(step.at, () => {
			switch (step.kind) {
				case 'event': {
					const id = `e${++eventSeq}`;
					events.push(id);
					const ids = step.batchWith ? [id, `e${++eventSeq}`] : [id];
					if (step.batchWith) events.push(ids[1]);
					say(() => `service sends ${ids.join(',')}${step.twice ? ' twice' : ''}`);
					deliver(ids, true);
					if (step.twice) deliver(ids, false);
					break;
				}
				case 'forged':
					deliver([`forged${++eventSeq}`], false, true);
					break;
				case 'staleWrite': {
					const then = loop.now - step.ageMs;
					const old = [...history].reverse().find((h) => h.at <= then) ?? history[0];
					say(`another writer saves the row of ${step.ageMs} ms ago`);
					land(old.row, old.version);
					break;
				}
				case 'stop': {
					const p = processes[step.process % processes.length];
					if (!p.up || !p.accepting) break;
					say(`P${p.index} stops gracefully`);
					p.accepting = false;
					const down = () => {
						if (!p.up) return; // killed meanwhile: the kill brings it back
						if (p.inflight.size || p.busy > 0) {
							loop.after(1_000, down);
							return;
						}
						p.up = false;
						lifeEnded.set(p, loop.now);
						loop.after(step.downMs, () => {
							processes[p.index] = boot(p.index);
							say(`P${p.index} is back`);
						});
					};
					down();
					break;
				}
				case 'kill': {
					const p = processes[step.process % processes.length];
					if (!p.up) break;
					say(`P${p.index} killed`);
					p.up = false;
					lifeEnded.set(p, loop.now);
					for (const r of p.inflight) r.kill();
					p.inflight.clear();
					// A run that started shortly before the kill may have no saved record yet.
					for (const s of runStarts)
						if (s.process === p.index && loop.now - s.at <= maxSave(schedule))
							killedBeforeSave.push(s.id);
					loop.after(step.downMs, () => {
						processes[p.index] = boot(p.index);
						say(`P${p.index} is back`);
					});
					break;
				}
			}
		});
	}
	await loop.run(200_000);
	const excused = excuses(runStarts, killedBeforeSave, maxSave(schedule), faultRuns);
	// LOSSES, the one rule for events the invariants allow to be lost: with a service that retries
	// little or not at all, an event whose delivery met an outage (no process open, a kill -9, a
	// process answering "starting up"); with any service, an event answered "starting up" by a process
	// life that no webhook call reached afterwards (its restart recovery runs at the first call of that
	// life; a later life replays from its own start, and n8n's answer left no trace: N6), or a retry of
	// an event first sent before that process came back (the recovery replays from the newest delivery
	// n8n saved, which may be newer than the event), or an event answered "starting up" by a life whose
	// first call found a delivery saved after the life started (another process's): the recovery then
	// asks nothing, since nothing tells it that anything was missed, and a replay from every process
	// start ran a replay status for every activation and start (receive.ts, recoveryDue).
	const mayBeLost = new Set<string>();
	const reachedAfter = (index: number, generation: number, at: number) =>
		(calls[index] ?? []).some((c) => c.generation === generation && c.at > at);
	const recoveryAsksNothing = (index: number, generation: number, lifeFrom: number) => {
		const read = firstCallRead.get(`${index}:${generation}`);
		return read === undefined || Date.parse(read) >= t0 + lifeFrom;
	};
	for (const a of startupAcks)
		for (const id of a.ids)
			if (
				!reachedAfter(a.process, a.generation, a.at) ||
				(firstSent.get(id) ?? 0) < a.lifeFrom ||
				recoveryAsksNothing(a.process, a.generation, a.lifeFrom)
			)
				mayBeLost.add(id);
	// And with a service that retries little or not at all: an event whose run n8n refused to start,
	// when its process ended before the replay the trigger asks ORPHANED_CLAIM_MS after the delivery
	// arrived. Its restart recovery often replays it (lastReceivedAt is held back at it), but not
	// always: another process's concurrent save can overwrite that time (N3), and no call may come.
	// Also, with such a service: an event whose run n8n refused to start for a copy that a replay asked
	// by another process (or an earlier life of this one) sent. The replay this process asks starts at
	// what it knows, the copy's arrival or its own replay's start, never at that other replay's start,
	// which the copy does not tell (the trigger reads no time from a body); the events between the two
	// starts are not sent again (kept: protocolRegressions.test.ts, "kept limits").
	if ((schedule.retries ?? 'many') !== 'many')
		for (const f of failedStarts) {
			const ended = lifeEnded.get(f.process);
			const replayedElsewhere =
				f.replayOf &&
				(f.replayOf.process !== f.process.index || f.replayOf.generation !== f.process.generation);
			if ((ended !== undefined && ended <= f.arrivedAt + ORPHANED_CLAIM_MS) || replayedElsewhere)
				for (const id of f.ids) mayBeLost.add(id);
		}
	if ((schedule.retries ?? 'many') !== 'many') for (const id of outage) mayBeLost.add(id);
	// NEEDED, the one rule for the trigger's replay requests: a process life asks for a replay only when
	// the world gave it something it may have missed: it started after the trigger was active (it was
	// down, or answered "starting up": N6, N7), or a body with events that it took met a run start n8n
	// refused (N5) or a caller that hung up (S1) before the request. Any other replay re-sends events
	// that ran, and its status message (S6) runs the workflow for nothing.
	const needlessReplays = replaysAsked
		.filter((r) => schedule.activated && r.generation === 1)
		.filter((r) => !(troubles.get(`${r.process}:${r.generation}`) ?? []).some((t) => t <= r.at))
		.map((r) => `P${r.process} life ${r.generation} asked ${r.job} at ${r.at} ms`);
	const statusRuns = new Map([...runs].filter(([id]) => isStatusId(id)));
	const log = lines.map(([at, line]) => `${String(at).padStart(7)} ${line()}`);
	return { runs, events, excused, mayBeLost, log, needlessReplays, statusRuns };
}

/**
 * EXCUSES, the one rule for runs of an event after its first that the invariants allow (the windows
 * docs/production.md names). Runs are taken in the order they started; a run is excused only as the
 * LATER run of a pair, never the earlier one, and each excuse covers one run:
 * - a copy in another process, or in another life of the same process, that reached it no later than
 *   the earlier run's start plus the longest save (`saveMax`): its claim could not see the earlier
 *   one (a balancer without the routing recipe, or the recipe moving an event's traffic while a
 *   process stops or comes back);
 * - one later run of an event whose run started no more than `saveMax` before a kill -9 of its
 *   process (its record may not have been saved);
 * - a run that started (or whose copy was read) while the row lacked the event's id because of n8n,
 *   not the trigger, as this model's own save history shows: a save that failed and was swallowed
 *   (N2); a save whose copy was read before the id entered the row, landing after the save that
 *   entered it (N3: n8n 2.40.7 writes the whole row with one UPDATE and no version,
 *   workflows/workflow-static-data.service.js, saveStaticDataById; issue 51 (a), kept in
 *   protocolRegressions.test.ts); another writer's stale copy (N4); only until a save brings the id
 *   back (the next write of the process that knows it). The group commit's hole is not of this kind:
 *   there the id never entered the row, and the explorer's test shows it is still found.
 * A pair checked both ways (as before) excused every event run in two processes or two lives of one,
 * since the later run's arrival always precedes the earlier run's start plus anything.
 */
export function excuses(
	runStarts: ReadonlyArray<{
		id: string;
		process: number;
		generation: number;
		arrivedAt: number;
		at: number;
	}>,
	killedBeforeSave: readonly string[],
	saveMax: number,
	faultRuns: readonly string[] = [],
): Map<string, number> {
	const excused = new Map<string, number>();
	const add = (id: string) => excused.set(id, (excused.get(id) ?? 0) + 1);
	for (let j = 0; j < runStarts.length; j++) {
		const b = runStarts[j];
		const earlier = runStarts
			.slice(0, j)
			.some(
				(a) =>
					a.id === b.id &&
					(a.process !== b.process || a.generation !== b.generation) &&
					b.arrivedAt <= a.at + saveMax,
			);
		if (earlier) add(b.id);
	}
	for (const id of killedBeforeSave) add(id);
	for (const id of faultRuns) add(id);
	return excused;
}

/** A replay job's status message (S6), as the trigger names it (events.ts). */
function isStatusId(id: string): boolean {
	return id.startsWith('replay:');
}

function maxSave(schedule: Schedule): number {
	return Math.max(...schedule.saveDelaysMs);
}

/** Why a schedule breaks an invariant, or undefined when it holds. */
export async function violation(
	s: Schedule,
	options: WorldOptions = {},
): Promise<string | undefined> {
	const outcome = await runSchedule(s, options);
	const lost = outcome.events.filter((id) => !outcome.runs.get(id) && !outcome.mayBeLost.has(id));
	if (lost.length) return `lost: ${lost.join(', ')}\n${outcome.log.join('\n')}`;
	if (outcome.needlessReplays.length)
		return `replays nothing needed: ${outcome.needlessReplays.join('; ')}\n${outcome.log.join('\n')}`;
	const forged = [...outcome.runs.keys()].filter((id) => id.startsWith('forged'));
	if (forged.length) return `forged bodies ran: ${forged.join(', ')}`;
	if (!s.routing && s.processes > 1) return undefined;
	const twice = outcome.events.filter(
		(id) => (outcome.runs.get(id) ?? 0) - (outcome.excused.get(id) ?? 0) > 1,
	);
	if (twice.length) return `ran twice: ${twice.join(', ')}\n${outcome.log.join('\n')}`;
	return undefined;
}
