/**
 * The Activity Stream Trigger's decisions (nodes/triggers/stream/streamCore.ts) driven through random
 * schedules against a model of the service and of n8n, the way the trigger shell (activityStream.ts)
 * drives them. Each behaviour of the world is one entry of the menu (`Action`), with its source:
 * [contract] /work/shared/spec/openapi.json (GET /2/activity/stream), [prose] platform.md, [n8n] n8n
 * 2.40.7's own source (file named), [issue] the reading of n8n in issues 51 and 52, [sandbox] its
 * route (sandbox/routes/activityStream.js) where the service publishes nothing, [assumed] none of them.
 *
 * The service:
 * - produce: events stamped when made, one line per copy; a second copy of an event on one connection
 *   (one per matching subscription) [sandbox; assumed for the service];
 * - connect: the catch-up the query asks for, oldest first, then live lines: backfill_minutes (the
 *   last N minutes), start_time (since then), end_time (the answer ends once everything up to it is
 *   sent) [contract: the three parameters; sandbox: ordering and the end]; a connection refused with
 *   429 (rate limit) or 409 [contract: the default error answer; assumed: which statuses];
 * - keepAlive: on a timer, so also inside a backlog, at any place among the lines not yet read
 *   [issue 51; assumed: platform.md says nothing of keep-alives];
 * - cut: every line not yet read is lost [prose: operational-disconnect]; slowReader: the service
 *   reports an operational disconnect (disconnect_type SlowReader: a reader that does not keep up, as
 *   the trigger is while it waits at its bound) and ends the answer cleanly, its unread lines lost
 *   [prose and contract: OperationalDisconnectProblem; assumed: a clean end after the problem line, the
 *   end a bounded catch-up's answer also has]; stall: silence until the
 *   trigger's keep-alive timeout closes it; the trigger reads a line within the catch-up margin of its
 *   sending (a wait of more than 5 s reads what came before it) [assumed].
 * The trigger shell's reading: at most `runBound` runs handed over with a donePromise and not settled;
 * at the bound the shell reads no further line until one settles (activityStream.ts,
 * MAX_RUNS_IN_PROGRESS; a schedule draws the shell's value or a smaller one its few events reach).
 * n8n:
 * - a run per emitted event unless its deduplication key already has an execution row [issue 52:
 *   the key is a unique column]; pruneRows: rows of successful runs deleted at their end
 *   (EXECUTIONS_DATA_SAVE_ON_SUCCESS=none) [n8n: execution-lifecycle-hooks.js, shouldNotSave];
 * - engineV2: a workflow on Engine 2.0 refuses emit's donePromise (UserError), the shell hands the
 *   event over without one and counts it started, and the deduplication key is ignored [issue 52];
 * - outage: a database outage: the runs n8n is asked to start meanwhile are not started, and n8n
 *   rejects their donePromise (the shell releases the event) before the outage ends [n8n: the run
 *   start's failure settles donePromise; assumed: when] — this is also a start refused by the queue;
 * - settle: a run ends: n8n saves the workflow's static data as it is then (the object the trigger
 *   writes its record into), then settles donePromise [n8n: execution-lifecycle-hooks.js,
 *   workflowExecuteAfter -> saveStaticDataById]; the static data is also saved at activation [n8n:
 *   active-workflow-manager.js, saveStaticData after add()];
 * - land: saves are writes that land later, in any order (an older copy can overwrite a newer one)
 *   [assumed: two runs' hooks race], or fail and are swallowed (logged; the run's answer unchanged)
 *   [n8n: execution-lifecycle-hooks.js, the catch around saveStaticDataById];
 * - restart: a graceful restart of the leading main: runs in progress end (their saves land in
 *   order), memory is lost, the static data last landed is what the new process reads [n8n];
 * - failover: several main instances: trigger() runs on the leader only; the old leader's
 *   closeFunction runs at step-down and its static data is not saved then; the new leader reads the
 *   static data from the database and keeps the memory of its own earlier leadership (the shell's
 *   module memory, kept after closeFunction only while a run it handed to n8n is in progress: issue
 *   53, a bounded map); with `overlap` the old leader keeps running until `stepDown` (a leader that lost
 *   Redis): two trigger() at once [issue 52];
 * - manual: an editor test run beside the active trigger: a core of its own, no deduplication key, no
 *   static data [issue 51; activityStream.ts].
 *
 * Invariants, checked at the end of every schedule (docs/production.md, the Activity Stream Trigger):
 * - none lost: every event produced after activation runs in production, except an event whose start
 *   failed under Engine 2.0 (n8n logs it; issue 52), and an event whose failed start n8n reported after
 *   a save that claimed it was taken, when n8n restarted before a later save;
 * - none twice, except (only the later run of a pair, stated once in `excused`) when no execution row
 *   can refuse it (pruneRows or Engine 2.0) and, between its first run and this one, a static data
 *   save was lost or landed out of order, or two leaders ran at once.
 * Checked as they happen (the core's stated contract, streamCore.ts; a position that never moves
 * still runs every event once, so "none lost" and "none twice" alone cannot see it):
 * - progress: when the service ends a bounded catch-up's answer and every run of that main is known
 *   to have started (none unsettled, none waiting for a copy), the position is at its end or past it;
 * - the saved record: its position is the core's, and no saved id is older than KEEP_IDS_MS behind it.
 */
import fc from 'fast-check';

import { explorerRuns } from '../helpers/explore';
import type { SavedPosition } from '../../nodes/triggers/stream/streamCore';
import { KEEP_IDS_MS, StreamCore } from '../../nodes/triggers/stream/streamCore';
import { MAX_RUNS_IN_PROGRESS } from '../../nodes/triggers/stream/activityStream';

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: the sweep's seed */
/** EXPLORER_RUNS sets the sweep's size; EXPLORER_SEED replays a failure (else a fixed seed). */
const RUNS = explorerRuns(3_000);
const SEED = process.env.EXPLORER_SEED ? Number(process.env.EXPLORER_SEED) : 20261125;
/* eslint-enable @n8n/community-nodes/no-restricted-globals */

const MIN = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 60_000;
const T0 = Date.parse('2026-11-25T12:00:00.000Z');

type Action =
	| { kind: 'produce'; count: number; copies?: number }
	| { kind: 'wait'; ms: number }
	| { kind: 'read'; lines: number; settle: boolean; main?: number }
	| { kind: 'keepAlive'; inside?: number; main?: number }
	| { kind: 'cut'; main?: number }
	| { kind: 'slowReader'; main?: number }
	| { kind: 'stall'; main?: number }
	| { kind: 'connect'; answer?: 'ok' | 409 | 429; main?: number }
	| { kind: 'settle'; which: number }
	| { kind: 'outage'; on: boolean }
	| { kind: 'land'; which: number; lost: boolean }
	| { kind: 'restart' }
	| { kind: 'failover'; overlap: boolean }
	| { kind: 'stepDown' }
	| { kind: 'manual'; on: boolean };

const kind = <K extends Action['kind']>(k: K) => fc.constant(k);
const main = fc.nat(1);
const action: fc.Arbitrary<Action> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			kind: kind('produce'),
			count: fc.integer({ min: 1, max: 3 }),
			copies: fc.integer({ min: 1, max: 2 }),
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			kind: kind('wait'),
			ms: fc.oneof(
				fc.integer({ min: 0, max: 2_000 }),
				fc.integer({ min: 20_000, max: 100_000 }),
				fc.integer({ min: 2 * MIN, max: 7 * MIN }),
			),
		}),
	},
	{
		weight: 6,
		arbitrary: fc.record({
			kind: kind('read'),
			lines: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant(1_000)),
			// Most runs end at once (n8n settles their donePromise); the rest later ('settle').
			settle: fc.boolean(),
			main,
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({ kind: kind('keepAlive'), inside: fc.nat(4), main }),
	},
	{ weight: 2, arbitrary: fc.record({ kind: kind('cut'), main }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('slowReader'), main }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('stall'), main }) },
	{
		weight: 3,
		arbitrary: fc.record({
			kind: kind('connect'),
			answer: fc.oneof(
				{ weight: 4, arbitrary: fc.constant('ok' as const) },
				{ weight: 1, arbitrary: fc.constantFrom(409 as const, 429 as const) },
			),
			main,
		}),
	},
	{ weight: 2, arbitrary: fc.record({ kind: kind('settle'), which: fc.nat(8) }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('outage'), on: fc.boolean() }) },
	{
		weight: 2,
		arbitrary: fc.record({ kind: kind('land'), which: fc.nat(4), lost: fc.boolean() }),
	},
	{ weight: 2, arbitrary: fc.record({ kind: kind('restart') }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('failover'), overlap: fc.boolean() }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('stepDown') }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('manual'), on: fc.boolean() }) },
) as fc.Arbitrary<Action>;

interface Schedule {
	/** n8n keeps no execution rows of successful runs. */
	pruneRows: boolean;
	/** The workflow is set to n8n's Engine 2.0. */
	engineV2?: boolean;
	/** The shell's bound on runs in progress (default MAX_RUNS_IN_PROGRESS). */
	runBound?: number;
	actions: Action[];
}

const schedule: fc.Arbitrary<Schedule> = fc.record({
	pruneRows: fc.boolean(),
	engineV2: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true)),
	runBound: fc.constantFrom(MAX_RUNS_IN_PROGRESS, 1, 2, 3),
	actions: fc.array(action, { minLength: 5, maxLength: 60, size: 'max' }),
});

type Line = { id: string } | 'keep-alive';
const copy = (o: SavedPosition): SavedPosition => JSON.parse(JSON.stringify(o)) as SavedPosition;

/** One main instance of n8n: its process memory, its trigger (when it runs one), its runs. */
interface Main {
	/**
	 * The shell's module memory: survives closeFunction while a run it handed to n8n is in progress
	 * (dropped when the last settles, unless the trigger is active again), not a restart.
	 */
	memory: StreamCore | undefined;
	/** The running trigger's core (trigger() on this main), and its static data object. */
	core: StreamCore | undefined;
	live: SavedPosition;
	conn: { queue: Line[]; end: number | undefined } | undefined;
	/** Emitted runs whose donePromise n8n has not settled yet. */
	unsettled: Array<{ id: string; started: boolean; ran: boolean; step: number }>;
}

interface Result {
	produced: string[];
	runs: Map<string, number[]>;
	problems: string[];
	excusedLoss: Set<string>;
	hazards: number[];
	rowsRefuse: boolean;
}

/** One copy of the model: the service, n8n and the trigger. */
function play(s: Schedule): Result {
	let now = T0;
	let step = 0;
	let seq = 0;
	const log: Array<{ id: string; at: number; copies: number }> = [];
	/** Each event's production runs (the step of each). */
	const runs = new Map<string, number[]>();
	const rows = new Set<string>();
	const problems: string[] = [];
	const excusedLoss = new Set<string>();
	/** Steps of a lost or out-of-order save, or of two leaders at once. */
	const hazards: number[] = [];
	const rowsRefuse = !s.pruneRows && !s.engineV2;
	/** The static data in the database, and the step the copy was taken at. */
	let persisted: { data: SavedPosition; taken: number } = { data: {}, taken: 0 };
	/** Saves on their way to the database (oldest first). */
	let pendingSaves: Array<{ data: SavedPosition; taken: number; main: Main }> = [];
	/** When each failed start was reported (the shell released the event). */
	const reportedAt = new Map<string, number>();
	let outage = false;
	let manual: { core: StreamCore; queue: Line[] } | undefined;

	const mains: Main[] = [0, 1].map(() => ({
		memory: undefined,
		core: undefined,
		live: {},
		conn: undefined,
		unsettled: [],
	}));
	let leader = 0;

	/** The shell's save(): its record into the static data object n8n saves. */
	const save = (m: Main) => {
		// Also after closeFunction: a run that ends later still settles into the same object.
		if (!m.memory) return;
		const record = copy(m.memory.saved());
		// The record's bounds: the position as it is, no id older than KEEP_IDS_MS behind it (what a
		// catch-up from it can re-send). The cap of MAX_SAVED_IDS is held by streamCoreDecisions.test.ts:
		// no schedule here makes more than a few dozen events.
		const position = m.memory.caughtUpTo;
		const at = position === undefined ? undefined : Date.parse(String(record.caughtUpTo));
		const handled = record.handled ?? [];
		if (at !== position) problems.push('the saved position is not the position');
		if (position !== undefined && handled.some(([, t]) => t < position - KEEP_IDS_MS))
			problems.push('a saved id older than the keep window');
		for (const k of Object.keys(m.live)) delete m.live[k];
		Object.assign(m.live, record);
	};
	/** n8n saves the static data object as it is now (a run ended, an activation). */
	const queueSave = (m: Main) => {
		if (outage) {
			// The database fails the save; n8n logs it and goes on.
			hazards.push(step);
			return;
		}
		pendingSaves.push({ data: copy(m.live), taken: step, main: m });
	};
	const land = (i: number, lost: boolean) => {
		const [w] = pendingSaves.splice(i, 1);
		if (!w) return;
		// Out of order, lost, or the copy of a main that no longer leads (a run that ended after its
		// step-down): the database may now hold an older record than the leader's.
		if (i > 0 || lost || w.main !== mains[leader]) hazards.push(step);
		if (!lost) persisted = { data: w.data, taken: w.taken };
	};
	const activate = (m: Main) => {
		// The shell: the remembered core takes a newer saved position; else a new core from the database.
		const saved = copy(persisted.data);
		m.live = copy(saved);
		if (m.memory) m.memory.resume(saved);
		m.core = m.memory ?? new StreamCore(saved.caughtUpTo ? saved : undefined, now);
		m.memory = m.core;
		save(m);
		// n8n saves the static data after the activation (active-workflow-manager.js).
		if (!outage) {
			pendingSaves.push({ data: copy(m.live), taken: step, main: m });
			land(pendingSaves.length - 1, false);
		}
	};
	const closeTrigger = (m: Main) => {
		// closeFunction: the connection closes; runs in progress go on and settle later.
		m.conn = undefined;
		m.core?.closed();
		m.core = undefined;
		// The shell's forgetIfDone: no run in progress, the memory goes (issue 53, a bounded map).
		if (!m.unsettled.length) m.memory = undefined;
	};
	const cut = (m: Main) => {
		m.conn = undefined;
		m.core?.closed();
	};
	const settle = (m: Main, i: number) => {
		const [run] = m.unsettled.splice(i, 1);
		if (!run) return;
		const core = m.memory!;
		if (run.started) {
			if (run.ran) {
				// The run's end: n8n saves the static data, deletes the row if it keeps none, then settles.
				queueSave(m);
				if (s.pruneRows) rows.delete(run.id);
			}
			core.started(run.id);
			save(m);
		} else {
			core.notStarted(run.id);
			save(m);
			reportedAt.set(run.id, step);
			// The shell closes the connection: the next one's catch-up sends the event again.
			if (core.waitingForCopy && m.core === core) cut(m);
		}
		// A closed trigger's last run settled: the shell forgets its memory.
		if (!m.core && !m.unsettled.length) m.memory = undefined;
	};
	const connect = (m: Main, answer: 'ok' | 409 | 429 = 'ok') => {
		const core = m.core;
		if (m.conn || !core) return;
		if (answer !== 'ok') return; // refused: the shell backs off and asks the same again
		const query = core.query(now);
		let from: number | undefined;
		if (query.backfill_minutes !== undefined) from = now - Number(query.backfill_minutes) * MIN;
		if (query.start_time !== undefined) from = Date.parse(String(query.start_time));
		const end = query.end_time !== undefined ? Date.parse(String(query.end_time)) : undefined;
		if (from !== undefined && from > now) problems.push('start_time in the future');
		if (end !== undefined && end > now) problems.push('end_time in the future');
		core.opened(now, query);
		const backlog: Line[] = [];
		if (from !== undefined)
			for (const e of log)
				if (e.at >= from && (end === undefined || e.at <= end))
					for (let c = 0; c < e.copies; c++) backlog.push({ id: e.id });
		m.conn = { queue: backlog, end };
	};
	const emit = (m: Main, id: string) => {
		// Each run its own moment; one started while two leaders run is itself a hazard.
		step++;
		if (mains.every((x) => x.core)) hazards.push(step);
		save(m);
		const started = !outage;
		let ran = false;
		if (started && (s.engineV2 || !rows.has(id))) {
			rows.add(id);
			ran = true;
			runs.set(id, [...(runs.get(id) ?? []), step]);
		}
		if (!started && s.engineV2) {
			// Engine 2.0: no donePromise, the shell counted it started; n8n only logs the failure.
			excusedLoss.add(id);
			m.memory!.started(id);
			return;
		}
		if (s.engineV2) {
			m.memory!.started(id);
			save(m);
			if (ran) {
				queueSave(m);
				if (s.pruneRows) rows.delete(id);
			}
			return;
		}
		m.unsettled.push({ id, started, ran, step });
	};
	/**
	 * The service ended a bounded catch-up's answer: everything up to its end was sent. Progress: with
	 * every run of this main known to have started (none unsettled, none waiting for a copy), the position
	 * is at that end or past it (a position that never moves still runs every event once).
	 */
	const endCatchUp = (m: Main, core: StreamCore) => {
		const end = m.conn!.end!;
		m.conn = undefined;
		core.ended();
		if (!m.unsettled.length && !core.waitingForCopy && !((core.caughtUpTo ?? -Infinity) >= end))
			problems.push(
				'a bounded catch-up ended with every run started, and the position stayed before its end',
			);
		save(m);
	};
	const runBound = s.runBound ?? MAX_RUNS_IN_PROGRESS;
	/** Reads up to `lines` lines; true when it stopped at the bound (the shell waits for a run's end). */
	const read = (m: Main, lines: number): boolean => {
		const core = m.core;
		if (!m.conn || !core) return false;
		for (let i = 0; i < lines && m.conn; i++) {
			const next = m.conn.queue[0];
			if (next !== undefined && next !== 'keep-alive' && m.unsettled.length >= runBound)
				return true;
			const line = m.conn.queue.shift();
			if (line === undefined) {
				// Everything sent: a bounded catch-up's answer ends here.
				if (m.conn.end !== undefined) endCatchUp(m, core);
				break;
			}
			if (line === 'keep-alive') continue;
			if (core.event(line.id, now) === 'run') emit(m, line.id);
			if (m.conn && core.checkpointDue(now)) cut(m);
		}
		if (m.conn && !m.conn.queue.length && m.conn.end !== undefined && lines > 0)
			endCatchUp(m, core);
		if (manual) {
			for (const line of manual.queue.splice(0))
				if (line !== 'keep-alive') manual.core.event(line.id, now);
		}
		return false;
	};
	/** Reads everything, the runs ending whenever reading waits for them. */
	const drain = (m: Main) => {
		while (read(m, Infinity)) while (m.unsettled.length) settle(m, 0);
	};
	const restart = (m: Main) => {
		// n8n stops gracefully: runs in progress end (their saves land), the memory is gone.
		while (m.unsettled.length) settle(m, 0);
		for (const w of pendingSaves.filter((x) => x.main === m)) persisted = w;
		pendingSaves = pendingSaves.filter((x) => x.main !== m);
		const leading = !!m.core;
		m.conn = undefined;
		m.core = undefined;
		m.memory = undefined;
		manual = undefined;
		// A failed start reported after the copy that claims it was taken: that copy drops its copies.
		for (const [id] of persisted.data.handled ?? [])
			if (!runs.has(id) && (reportedAt.get(id) ?? -1) > persisted.taken) excusedLoss.add(id);
		if (leading) activate(m);
	};
	const endOutage = () => {
		// n8n reports every failed start before its database works again.
		for (const m of mains)
			while (m.unsettled.some((r) => !r.started))
				settle(
					m,
					m.unsettled.findIndex((r) => !r.started),
				);
		outage = false;
	};
	const target = (i: number | undefined): Main => mains[(i ?? leader) % 2];

	activate(mains[0]);
	for (const a of s.actions) {
		step++;
		// Two leaders at once: neither's record holds what the other ran.
		if (mains.every((x) => x.core)) hazards.push(step);
		switch (a.kind) {
			case 'produce':
				for (let i = 0; i < a.count; i++) {
					const id = String(++seq);
					const copies = a.copies ?? 1;
					log.push({ id, at: now, copies });
					// A bounded catch-up's answer carries no live line: it ends after its backlog.
					for (const m of mains)
						if (m.conn && m.conn.end === undefined)
							for (let c = 0; c < copies; c++) m.conn.queue.push({ id });
					manual?.queue.push({ id });
				}
				break;
			case 'wait':
				// The trigger reads what the connection carries as it comes: a line is read well within the
				// catch-up margin (30 s) of being sent, so a longer wait reads what was sent before it.
				if (a.ms > 5_000) for (const m of mains) read(m, Infinity);
				now += a.ms;
				// The shell's watchdog closes a connection without an end at the checkpoint.
				for (const m of mains) if (m.conn && m.core?.checkpointDue(now)) cut(m);
				break;
			case 'read': {
				const m = target(a.main);
				read(m, a.lines);
				if (a.settle)
					for (let i = m.unsettled.length - 1; i >= 0; i--)
						if (m.unsettled[i].started) settle(m, i);
				break;
			}
			case 'keepAlive': {
				// On the service's timer: anywhere among the lines not read yet, also inside a backlog.
				const conn = target(a.main).conn;
				if (conn)
					conn.queue.splice(Math.min(a.inside ?? Infinity, conn.queue.length), 0, 'keep-alive');
				break;
			}
			case 'cut':
				cut(target(a.main));
				break;
			case 'slowReader': {
				// The problem line, then the answer's clean end: what was not read is lost.
				const m = target(a.main);
				if (m.conn && m.core) {
					m.core.disconnectReported();
					m.conn = undefined;
					m.core.ended();
					save(m);
				}
				break;
			}
			case 'stall': {
				const m = target(a.main);
				if (m.conn) {
					now += KEEP_ALIVE_TIMEOUT_MS;
					cut(m);
				}
				break;
			}
			case 'connect':
				connect(target(a.main), a.answer);
				break;
			case 'settle': {
				const all = mains.flatMap((m) => m.unsettled.map((_, i) => [m, i] as const));
				if (all.length) {
					const [m, i] = all[a.which % all.length];
					settle(m, i);
				}
				break;
			}
			case 'outage':
				if (a.on) outage = true;
				else endOutage();
				break;
			case 'land':
				if (pendingSaves.length) land(a.which % pendingSaves.length, a.lost);
				break;
			case 'restart':
				if (outage) endOutage();
				restart(mains[leader]);
				break;
			case 'failover': {
				const old = mains[leader];
				// Runs of the old leader still going, or their saves not landed: the new leader reads a record
				// without them.
				if (old.unsettled.length || pendingSaves.some((w) => w.main === old)) hazards.push(step);
				leader = 1 - leader;
				if (!a.overlap) closeTrigger(old);
				else if (old.core) hazards.push(step);
				if (!mains[leader].core) activate(mains[leader]);
				break;
			}
			case 'stepDown': {
				// The leader that lost Redis notices and closes its trigger.
				const other = mains[1 - leader];
				if (other.core) {
					closeTrigger(other);
					hazards.push(step);
				}
				break;
			}
			case 'manual':
				manual = a.on ? { core: new StreamCore(undefined, undefined), queue: [] } : undefined;
				break;
		}
	}
	// The end: the database works, one leader, the stream stays up until everything is read and every
	// run ended, and every save landed in order.
	step++;
	endOutage();
	const other = mains[1 - leader];
	if (other.core) {
		closeTrigger(other);
		hazards.push(step);
	}
	const m = mains[leader];
	for (let round = 0; round < 30; round++) {
		for (const x of mains) while (x.unsettled.length) settle(x, 0);
		connect(m);
		drain(m);
		m.conn?.queue.push('keep-alive');
		drain(m);
		// Quiet: a connection without an end read to its last line, no run waiting.
		const quiet = m.conn && m.conn.end === undefined && !m.conn.queue.length;
		if (quiet && !mains.some((x) => x.unsettled.length) && !m.core?.waitingForCopy) break;
	}
	while (pendingSaves.length) land(0, false);
	if (mains.some((x) => x.unsettled.length) || m.core?.waitingForCopy) problems.push('never quiet');
	return { produced: log.map((e) => e.id), runs, problems, excusedLoss, hazards, rowsRefuse };
}

/** The excuse rule, stated once: only the later run of a pair, only after a hazard between the two. */
function excused(r: Result, first: number, later: number): boolean {
	return !r.rowsRefuse && r.hazards.some((h) => h > first && h <= later);
}

function check(s: Schedule): void {
	const r = play(s);
	expect(r.problems).toEqual([]);
	const lost = r.produced.filter((id) => !r.runs.has(id) && !r.excusedLoss.has(id));
	const twice = r.produced.filter((id) => {
		const steps = r.runs.get(id) ?? [];
		return steps.slice(1).some((later, i) => !excused(r, steps[i], later));
	});
	expect({ lost, twice }).toEqual({ lost: [], twice: [] });
}

/**
 * Every counterexample fast-check found here, kept as a named case: the first against an earlier
 * model, the others against the core with one of its rules broken on purpose (each rule's check). The
 * older ones were drawn before the menu had copies, refused connections, saves landing and leaders:
 * their missing fields take the defaults (one copy, answered, the first main).
 */
const FOUND: Array<[string, Schedule]> = [
	[
		'a line read after more than the margin: found when the model let the trigger leave lines unread (the model now reads within the margin)',
		{
			pruneRows: false,
			actions: [
				{ kind: 'connect' },
				{ kind: 'keepAlive' },
				{ kind: 'produce', count: 1 },
				{ kind: 'wait', ms: 30051 },
				{ kind: 'read', lines: 1, settle: false },
				{ kind: 'wait', ms: 133837 },
				{ kind: 'wait', ms: 28982 },
				{ kind: 'cut' },
				{ kind: 'keepAlive' },
				{ kind: 'wait', ms: 47131 },
				{ kind: 'read', lines: 1, settle: false },
				{ kind: 'cut' },
			],
		},
	],
	[
		'the position moved during a catch-up (a restart in the backlog)',
		{
			pruneRows: false,
			actions: [
				{ kind: 'produce', count: 2 },
				{ kind: 'produce', count: 1 },
				{ kind: 'connect' },
				{ kind: 'wait', ms: 120000 },
				{ kind: 'read', lines: 1, settle: true },
				{ kind: 'read', lines: 1, settle: false },
				{ kind: 'produce', count: 1 },
				{ kind: 'restart' },
				{ kind: 'wait', ms: 120000 },
				{ kind: 'cut' },
			],
		},
	],
	[
		'the position moved during a catch-up (a cut after a long silence)',
		{
			pruneRows: true,
			actions: [
				{ kind: 'connect' },
				{ kind: 'produce', count: 1 },
				{ kind: 'wait', ms: 150001 },
				{ kind: 'cut' },
				{ kind: 'connect' },
				{ kind: 'produce', count: 1 },
				{ kind: 'outage', on: false },
				{ kind: 'produce', count: 1 },
			],
		},
	],
	[
		'the position passed a run n8n did not start',
		{
			pruneRows: false,
			actions: [
				{ kind: 'outage', on: true },
				{ kind: 'connect' },
				{ kind: 'produce', count: 1 },
				{ kind: 'stall' },
				{ kind: 'wait', ms: 1 },
				{ kind: 'produce', count: 1 },
				{ kind: 'read', lines: 1000, settle: false },
				{ kind: 'connect' },
				{ kind: 'keepAlive' },
				{ kind: 'read', lines: 1000, settle: false },
			],
		},
	],
	[
		'ids kept for less than a catch-up re-sends, rows pruned, a restart',
		{
			pruneRows: true,
			actions: [
				{ kind: 'produce', count: 1 },
				{ kind: 'connect' },
				{ kind: 'keepAlive' },
				{ kind: 'wait', ms: 29811 },
				{ kind: 'read', lines: 1000, settle: true },
				{ kind: 'wait', ms: 190 },
				{ kind: 'produce', count: 1 },
				{ kind: 'read', lines: 1000, settle: false },
				{ kind: 'keepAlive' },
				{ kind: 'connect' },
				{ kind: 'restart' },
				{ kind: 'cut' },
				{ kind: 'outage', on: false },
			],
		},
	],
	[
		'no ids in the static data, rows pruned, a restart',
		{
			pruneRows: true,
			actions: [
				{ kind: 'produce', count: 1 },
				{ kind: 'connect' },
				{ kind: 'read', lines: 1, settle: false },
				{ kind: 'restart' },
			],
		},
	],
	[
		'the claim kept after n8n did not start the run',
		{
			pruneRows: false,
			actions: [
				{ kind: 'connect' },
				{ kind: 'produce', count: 1 },
				{ kind: 'outage', on: true },
				{ kind: 'read', lines: 1, settle: false },
			],
		},
	],
	[
		'issue 51 (a): a keep-alive inside a backlog completed the catch-up (found with the old keep-alive rule put back)',
		{
			pruneRows: false,
			engineV2: true,
			actions: [
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'wait', ms: 31000 },
				{ kind: 'connect', answer: 'ok', main: 0 },
				{ kind: 'keepAlive', inside: 0, main: 0 },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
				{ kind: 'cut', main: 0 },
				{ kind: 'wait', ms: 120000 },
				{ kind: 'cut', main: 0 },
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'read', lines: 1000, settle: false, main: 0 },
				{ kind: 'wait', ms: 0 },
			],
		},
	],
	[
		"a bounded catch-up's end passed a run n8n did not start (found with that bound taken out of ended())",
		{
			pruneRows: false,
			engineV2: false,
			actions: [
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'wait', ms: 120000 },
				{ kind: 'connect', answer: 'ok', main: 0 },
				{ kind: 'outage', on: true },
				{ kind: 'settle', which: 0 },
				{ kind: 'keepAlive', inside: 0, main: 0 },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
			],
		},
	],
	[
		'issue 52: a main that leads again kept its older memory over the record the leader between saved (found with resume() emptied)',
		{
			pruneRows: true,
			engineV2: false,
			actions: [
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'failover', overlap: false },
				{ kind: 'connect', answer: 'ok', main: 1 },
				{ kind: 'wait', ms: 20000 },
				{ kind: 'restart' },
				{ kind: 'failover', overlap: false },
				{ kind: 'settle', which: 0 },
				{ kind: 'land', which: 0, lost: false },
				{ kind: 'manual', on: false },
				{ kind: 'cut', main: 0 },
				{ kind: 'produce', count: 1, copies: 1 },
			],
		},
	],
	[
		"issue 52: a released event claimed by the other leader's record held the position for good, and every connection was a bounded catch-up that never carried the next event (long sweep, seed 20261125)",
		{
			pruneRows: false,
			engineV2: false,
			actions: [
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'outage', on: true },
				{ kind: 'connect', answer: 'ok', main: 0 },
				{ kind: 'read', lines: 1000, settle: false, main: 0 },
				{ kind: 'failover', overlap: false },
				{ kind: 'outage', on: false },
				{ kind: 'connect', answer: 'ok', main: 1 },
				{ kind: 'read', lines: 1, settle: false, main: 1 },
				{ kind: 'restart' },
				{ kind: 'connect', answer: 'ok', main: 1 },
				{ kind: 'stall', main: 1 },
				{ kind: 'failover', overlap: true },
				{ kind: 'connect', answer: 'ok', main: 1 },
				{ kind: 'stall', main: 1 },
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'connect', answer: 'ok', main: 0 },
				{ kind: 'keepAlive', inside: 0, main: 0 },
				{ kind: 'read', lines: 1000, settle: false, main: 0 },
				{ kind: 'read', lines: 1000, settle: false, main: 0 },
			],
		},
	],
	[
		"issue 51 (b): a failed start's release not written into the static data, then a restart (found with the shell's save after the release taken out of the model)",
		{
			pruneRows: false,
			engineV2: false,
			actions: [
				{ kind: 'failover', overlap: false },
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'connect', answer: 'ok', main: 1 },
				{ kind: 'read', lines: 1, settle: false, main: 1 },
				{ kind: 'outage', on: true },
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'wait', ms: 120000 },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
				{ kind: 'stepDown' },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
				{ kind: 'connect', answer: 'ok', main: 0 },
				{ kind: 'restart' },
			],
		},
	],
	[
		"issue 51: the position stopped short of a bounded catch-up's end that the service reached (found by the progress check with ended() moving to a minute before the end; none lost, none twice)",
		{
			pruneRows: false,
			engineV2: false,
			actions: [
				{ kind: 'wait', ms: 120000 },
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'land', which: 0, lost: false },
				{ kind: 'land', which: 0, lost: false },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
			],
		},
	],
	[
		'the service disconnected a slow reader with a clean end during a bounded catch-up: the end moved the position past the unread events (found with disconnectReported() emptied)',
		{
			pruneRows: false,
			engineV2: false,
			runBound: 10,
			actions: [
				{ kind: 'produce', count: 1, copies: 1 },
				{ kind: 'failover', overlap: false },
				{ kind: 'wait', ms: 26943 },
				{ kind: 'wait', ms: 1995 },
				{ kind: 'wait', ms: 91062 },
				{ kind: 'cut', main: 0 },
				{ kind: 'read', lines: 1, settle: false, main: 0 },
				{ kind: 'stepDown' },
				{ kind: 'connect', answer: 'ok', main: 1 },
				{ kind: 'slowReader', main: 1 },
			],
		},
	],
];

describe('the activity stream trigger under random schedules', () => {
	it(`runs every event produced after activation once in production (${RUNS} schedules)`, () => {
		fc.assert(fc.property(schedule, check), {
			seed: SEED,
			numRuns: RUNS,
			examples: FOUND.map(([, s]) => [s]),
		});
	});

	it.each(FOUND)('kept counterexample: %s', (_name, s) => check(s));

	it('keeps ids long enough for the widest re-send of a catch-up', () => {
		// backfill_minutes rounds the gap up to a whole minute on top of the margin.
		expect(KEEP_IDS_MS).toBeGreaterThanOrEqual(30_000 + MIN);
	});
});
