/**
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
import { DeliveryMemory } from '../../../nodes/PlatformTrigger/state';

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
	| { at: number; kind: 'kill'; process: number; downMs: number };

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
	/** The service's retry delays (ms), in turn (cycled). */
	retryDelaysMs: number[];
	/** How long saving the static data takes (ms), in turn (cycled). */
	saveDelaysMs: number[];
}

export interface Outcome {
	/** Runs per event id, production. */
	runs: Map<string, number>;
	/** The events the service created (forged ones excluded). */
	events: string[];
	/**
	 * Events that may run twice by the documented windows: a kill -9 after a run started and before
	 * n8n saved its record; a copy that reached another process while the first process was still
	 * starting the run (see the end of runSchedule).
	 */
	excused: Set<string>;
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
}

function cycle<T>(list: T[], i: number): T {
	return list[i % list.length];
}

function sign(raw: Buffer, secret = SECRET): string {
	return `sha256=${createHmac('sha256', secret).update(raw).digest('base64')}`;
}

/** Runs one schedule to its end and reports what ran. */
export async function runSchedule(schedule: Schedule): Promise<Outcome> {
	const loop = new Loop();
	const t0 = Date.parse('2026-06-01T12:00:00Z');
	const clock: Clock = {
		now: () => t0 + loop.now,
		sleep: async (ms) => await new Promise<void>((resolve) => loop.after(ms, resolve)),
	};
	// Lines are kept as their parts and joined only when a schedule fails (most never are read).
	const lines: Array<[number, () => string]> = [];
	const say = (line: string | (() => string)) =>
		lines.push([loop.now, typeof line === 'string' ? () => line : line]);
	const wall = () => new Date(t0 + loop.now);

	// The database row of the workflow's static data (the trigger's node data), as n8n stores it.
	let row = JSON.stringify({
		webhookId: 'wh-1',
		lastReceivedAt: new Date(t0 - 5 * MINUTE).toISOString(),
	} satisfies TriggerState);

	const runs = new Map<string, number>();
	const runStarts: Array<{
		id: string;
		process: number;
		generation: number;
		arrivedAt: number;
		at: number;
	}> = [];
	const excused = new Set<string>();
	const events: string[] = [];
	/** Every body the service sent, with when (for replays). */
	const sent: Array<{ at: number; ids: string[] }> = [];
	let startIndex = 0;
	let retryIndex = 0;
	let saveIndex = 0;

	const processes: Process[] = [];
	const boot = (index: number): Process => ({
		index,
		memory: new DeliveryMemory(),
		startedAt: t0 + loop.now,
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
		loop.after(cycle(schedule.saveDelaysMs, saveIndex++), () => {
			if (!p.up || p.generation !== generation) return; // killed before the write landed
			row = text;
			then();
		});
	};

	const retry = (d: Delivery) => {
		if (d.forged) return;
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
			retry(d);
			return;
		}
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
		const ctx = webhookContext(copy, d, res, requestReplay(p));
		say(() => `P${p.index} receives ${d.ids.join(',')} attempt ${d.attempts}`);
		const result: IWebhookResponseData = await receiveDelivery(
			ctx,
			wall(),
			p.startedAt,
			p.memory,
			clock,
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
		const fate = schedule.starts[startIndex++] ?? { delayMs: 10, fails: false };
		loop.after(fate.delayMs, () => {
			if (!p.up || p.generation !== generation) return;
			p.busy--;
			if (fate.fails) {
				say(() => `run start failed at P${p.index}`);
				if (!answeredAlready) req.answer(500);
				return;
			}
			const items = result.workflowData?.[0] ?? [];
			for (const item of items) {
				const payload = (item.json.payload ?? {}) as IDataObject;
				const id = String(payload.id_str ?? payload.id ?? item.json.event_id ?? '');
				runs.set(id, (runs.get(id) ?? 0) + 1);
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

	/** The service's replay: every body sent in the minutes asked for, delivered again a bit later. */
	const requestReplay = (p: Process) => (from: string, to: string) => {
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
		const bodies = sent.filter((s) => s.at >= fromMs && s.at < toMs);
		say(`P${p.index} asks a replay ${from}-${to}: ${bodies.length} bodies`);
		loop.after(2_000, () => {
			for (const s of bodies) deliver(s.ids, false);
		});
	};

	const deliver = (ids: string[], record: boolean, forged = false): void => {
		if (!schedule.accountActivity && ids.length > 1) {
			// Activity bodies carry one event each: a batch is its bodies sent at the same instant.
			for (const id of ids) deliver([id], record, forged);
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
		};
		if (record) sent.push({ at: loop.now, ids });
		attempt(d);
	};

	const webhookContext = (
		copy: TriggerState,
		d: Delivery,
		res: IDataObject,
		replay: (from: string, to: string) => void,
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
			if (String(options.url).endsWith('/2/webhooks/replay'))
				replay(String(body.from_date), String(body.to_date));
			return { statusCode: 200, headers: {}, body: { data: { job_id: 'job-1' } } };
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
					for (const r of p.inflight) r.kill();
					p.inflight.clear();
					// A run that started shortly before the kill may have no saved record yet.
					for (const s of runStarts)
						if (s.process === p.index && loop.now - s.at <= maxSave(schedule)) excused.add(s.id);
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
	// Copies of one event in two processes whose claims do not meet: the second copy reached its
	// process before the first one's run had started and its record was saved (a balancer without the
	// routing recipe, or the recipe moving an event's traffic while a process stops or comes back).
	const saveMax = Math.max(...schedule.saveDelaysMs);
	for (const a of runStarts)
		for (const b of runStarts)
			if (
				a.id === b.id &&
				(a.process !== b.process || a.generation !== b.generation) &&
				b.arrivedAt <= a.at + saveMax
			)
				excused.add(a.id);
	const log = lines.map(([at, line]) => `${String(at).padStart(7)} ${line()}`);
	return { runs, events, excused, log };
}

function maxSave(schedule: Schedule): number {
	return Math.max(...schedule.saveDelaysMs);
}

/** Why a schedule breaks an invariant, or undefined when it holds. */
export async function violation(s: Schedule): Promise<string | undefined> {
	const outcome = await runSchedule(s);
	const lost = outcome.events.filter((id) => !outcome.runs.get(id));
	if (lost.length) return `lost: ${lost.join(', ')}\n${outcome.log.join('\n')}`;
	const forged = [...outcome.runs.keys()].filter((id) => id.startsWith('forged'));
	if (forged.length) return `forged bodies ran: ${forged.join(', ')}`;
	if (!s.routing && s.processes > 1) return undefined;
	const twice = outcome.events.filter(
		(id) => (outcome.runs.get(id) ?? 0) > 1 && !outcome.excused.has(id),
	);
	if (twice.length) return `ran twice: ${twice.join(', ')}\n${outcome.log.join('\n')}`;
	return undefined;
}
