/**
 * The Activity Stream Trigger's decisions (nodes/PlatformTrigger/streamCore.ts) driven through random
 * schedules against a model of the service and of n8n, the way the trigger shell drives them:
 *
 * - the service: an event log (each event stamped when it is produced), a connection that sends the
 *   catch-up the query asks for (backfill_minutes: the last N minutes; start_time: from that time; as
 *   sandbox/routes/activityStream.js serves them), oldest first, then live events, and a keep-alive
 *   once the backlog is sent; a cut loses every line not yet read; a stall is a cut after the
 *   keep-alive timeout; the trigger reads a line within the catch-up margin of its sending (a wait
 *   of more than 5 s reads what came before it);
 * - n8n: a run per emitted event unless its deduplication key already has an execution row; rows are
 *   deleted after a successful run when the schedule keeps none (EXECUTIONS_DATA_SAVE_ON_SUCCESS=none);
 *   the static data is saved when the trigger emits (as n8n does) and at activation; a database
 *   outage fails the runs n8n is asked to start and the static data saves meanwhile, and n8n reports
 *   each failed start (emit's donePromise) before the outage ends; a restart loses memory and keeps
 *   the static data last saved; an editor test run beside the active trigger has a core of its own.
 *
 * Invariant: every event produced after activation runs in production exactly once.
 */
import fc from 'fast-check';

import type { SavedPosition } from '../../nodes/PlatformTrigger/streamCore';
import { KEEP_IDS_MS, StreamCore } from '../../nodes/PlatformTrigger/streamCore';

const MIN = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 60_000;
const T0 = Date.parse('2026-11-25T12:00:00.000Z');

type Action =
	| { kind: 'produce'; count: number }
	| { kind: 'wait'; ms: number }
	| { kind: 'read'; lines: number; settle: boolean }
	| { kind: 'keepAlive' }
	| { kind: 'cut' }
	| { kind: 'stall' }
	| { kind: 'connect' }
	| { kind: 'settle'; which: number }
	| { kind: 'outage'; on: boolean }
	| { kind: 'restart' }
	| { kind: 'manual'; on: boolean };

const kind = <K extends Action['kind']>(k: K) => fc.constant(k);
const action: fc.Arbitrary<Action> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({ kind: kind('produce'), count: fc.integer({ min: 1, max: 3 }) }),
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
		}),
	},
	{ weight: 3, arbitrary: fc.record({ kind: kind('keepAlive') }) },
	{ weight: 2, arbitrary: fc.record({ kind: kind('cut') }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('stall') }) },
	{ weight: 3, arbitrary: fc.record({ kind: kind('connect') }) },
	{ weight: 2, arbitrary: fc.record({ kind: kind('settle'), which: fc.nat(8) }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('outage'), on: fc.boolean() }) },
	{ weight: 2, arbitrary: fc.record({ kind: kind('restart') }) },
	{ weight: 1, arbitrary: fc.record({ kind: kind('manual'), on: fc.boolean() }) },
) as fc.Arbitrary<Action>;

interface Schedule {
	/** n8n keeps no execution rows of successful runs. */
	pruneRows: boolean;
	actions: Action[];
}

const schedule: fc.Arbitrary<Schedule> = fc.record({
	pruneRows: fc.boolean(),
	actions: fc.array(action, { minLength: 5, maxLength: 60, size: 'max' }),
});

type Line = { id: string } | 'keep-alive';

/** One copy of the model: the service, n8n and the trigger; returns each event's production runs. */
function play(s: Schedule): { produced: string[]; runs: Map<string, number>; problems: string[] } {
	let now = T0;
	let seq = 0;
	const log: Array<{ id: string; at: number }> = [];
	const runs = new Map<string, number>();
	const rows = new Set<string>();
	let persisted: SavedPosition | undefined;
	let core = new StreamCore(undefined, now);
	persisted = JSON.parse(JSON.stringify(core.saved())) as SavedPosition;
	let conn: { queue: Line[]; backlog: number } | undefined;
	let manual: { core: StreamCore; queue: Line[] } | undefined;
	let outage = false;
	/** Emitted runs whose donePromise n8n has not settled yet. */
	let unsettled: Array<{ id: string; started: boolean }> = [];
	const problems: string[] = [];

	const saveAtEmit = () => {
		if (!outage) persisted = JSON.parse(JSON.stringify(core.saved())) as SavedPosition;
	};
	const cut = () => {
		conn = undefined;
		core.closed();
	};
	const settle = (i: number) => {
		const [run] = unsettled.splice(i, 1);
		if (!run) return;
		if (run.started) {
			if (s.pruneRows) rows.delete(run.id);
			core.started(run.id);
		} else {
			core.notStarted(run.id);
			// The shell closes the connection: the next one's catch-up sends the event again.
			if (core.waitingForCopy) cut();
		}
	};
	const connect = () => {
		if (conn) return;
		const query = core.query(now);
		let from: number | undefined;
		if (query.backfill_minutes !== undefined) from = now - Number(query.backfill_minutes) * MIN;
		if (query.start_time !== undefined) from = Date.parse(String(query.start_time));
		if (query.start_time !== undefined && from! > now) problems.push('start_time in the future');
		core.opened(now, query);
		const backlog: Line[] =
			from === undefined ? [] : log.filter((e) => e.at >= from!).map((e) => ({ id: e.id }));
		conn = { queue: backlog, backlog: backlog.length };
	};
	const emit = (id: string) => {
		saveAtEmit();
		// n8n: refused by the deduplication key when its row exists; not started during an outage.
		if (outage) {
			unsettled.push({ id, started: false });
			return;
		}
		if (rows.has(id)) {
			unsettled.push({ id, started: true });
			return;
		}
		rows.add(id);
		runs.set(id, (runs.get(id) ?? 0) + 1);
		unsettled.push({ id, started: true });
	};
	const read = (lines: number) => {
		if (!conn) return;
		for (let i = 0; i < lines && conn && conn.queue.length; i++) {
			const line = conn.queue.shift()!;
			if (conn.backlog > 0) conn.backlog--;
			if (line === 'keep-alive') core.keepAlive(now);
			else if (core.event(line.id, now) === 'run') emit(line.id);
		}
		if (manual) {
			for (const line of manual.queue.splice(0))
				if (line !== 'keep-alive') manual.core.event(line.id, now);
		}
	};
	const restart = () => {
		// n8n stops: runs in progress end (their rows pruned or kept), the memory is gone.
		for (const run of unsettled) if (run.started && s.pruneRows) rows.delete(run.id);
		unsettled = [];
		conn = undefined;
		manual = undefined;
		core = new StreamCore(persisted, now);
		persisted = JSON.parse(JSON.stringify(core.saved())) as SavedPosition;
	};
	const endOutage = () => {
		// n8n reports every failed start before its database works again.
		while (unsettled.some((r) => !r.started)) settle(unsettled.findIndex((r) => !r.started));
		outage = false;
	};

	for (const a of s.actions) {
		switch (a.kind) {
			case 'produce':
				for (let i = 0; i < a.count; i++) {
					const id = String(++seq);
					log.push({ id, at: now });
					conn?.queue.push({ id });
					manual?.queue.push({ id });
				}
				break;
			case 'wait':
				// The trigger reads what the connection carries as it comes: a line is read well within the
				// catch-up margin (30 s) of being sent, so a longer wait reads what was sent before it.
				if (a.ms > 5_000) read(Infinity);
				now += a.ms;
				break;
			case 'read':
				read(a.lines);
				if (a.settle)
					for (let i = unsettled.length - 1; i >= 0; i--) if (unsettled[i].started) settle(i);
				break;
			case 'keepAlive':
				// Sent after the backlog (queued behind it), like every line after it.
				conn?.queue.push('keep-alive');
				break;
			case 'cut':
				cut();
				break;
			case 'stall':
				if (conn) {
					now += KEEP_ALIVE_TIMEOUT_MS;
					cut();
				}
				break;
			case 'connect':
				connect();
				break;
			case 'settle':
				if (unsettled.length) settle(a.which % unsettled.length);
				break;
			case 'outage':
				if (a.on) outage = true;
				else endOutage();
				break;
			case 'restart':
				if (outage) endOutage();
				restart();
				break;
			case 'manual':
				manual = a.on ? { core: new StreamCore(undefined, undefined), queue: [] } : undefined;
				break;
		}
	}
	// The end: the database works, the stream stays up until everything is read and every run ended.
	endOutage();
	for (let round = 0; round < 20; round++) {
		while (unsettled.length) settle(0);
		connect();
		read(Infinity);
		conn?.queue.push('keep-alive');
		read(Infinity);
		if (!unsettled.length && !core.waitingForCopy) break;
	}
	if (unsettled.length || core.waitingForCopy) problems.push('never quiet');
	return { produced: log.map((e) => e.id), runs, problems };
}

function check(s: Schedule): void {
	const { produced, runs, problems } = play(s);
	expect(problems).toEqual([]);
	const lost = produced.filter((id) => !runs.has(id));
	const twice = produced.filter((id) => (runs.get(id) ?? 0) > 1);
	expect({ lost, twice }).toEqual({ lost: [], twice: [] });
}

/**
 * Every counterexample fast-check found here, kept as a named case: the first against an earlier
 * model, the others against the core with one of its rules broken on purpose (each rule's check).
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
];

describe('the activity stream trigger under random schedules', () => {
	it('runs every event produced after activation once in production (2,000 seeded schedules)', () => {
		fc.assert(fc.property(schedule, check), {
			seed: 20261125,
			numRuns: 2_000,
			examples: FOUND.map(([, s]) => [s]),
		});
	});

	it.each(FOUND)('kept counterexample: %s', (_name, s) => check(s));

	it('keeps ids long enough for the widest re-send of a catch-up', () => {
		// backfill_minutes rounds the gap up to a whole minute on top of the margin.
		expect(KEEP_IDS_MS).toBeGreaterThanOrEqual(30_000 + MIN);
	});
});
