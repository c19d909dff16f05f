/**
 * The Activity Stream Trigger's decisions (nodes/triggers/stream/streamCore.ts), one at a time: where
 * the position goes, what a (re)connection asks the service for, which copies run, what is remembered
 * and what is saved, their bounds, and what a main that leads again takes. The rules are the core's
 * own comments and docs/production.md ("The Activity Stream Trigger: what holds and where it ends"):
 * the position moves only when a catch-up asked with an end_time is ended by the service, never past
 * a run not known to have started; a connection without an end is closed CHECKPOINT_MS after the
 * position for such a catch-up; ids are kept KEEP_IDS_MS behind the position, at most MAX_SAVED_IDS.
 * The explorer (activityStreamProperty.test.ts) drives the same rules through random schedules; these
 * tests hold the ones its schedules are too small or too coarse to reach (bench/results/mutation.md).
 */
import type { SavedPosition } from '../../nodes/triggers/stream/streamCore';
import {
	CATCH_UP_MARGIN_MS,
	CHECKPOINT_MS,
	KEEP_IDS_MS,
	MAX_COPY_WAIT_MS,
	MAX_MEMORY_IDS,
	MAX_PENDING,
	MAX_SAVED_IDS,
	RECORD_TRIM,
	StreamCore,
	catchUpQuery,
} from '../../nodes/triggers/stream/streamCore';

const MIN = 60_000;
const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
/** As the contract's start_time and end_time take it: whole seconds. */
const wire = (ms: number) => iso(ms).replace('.000Z', 'Z');

/** A core whose position is `position`, with a bounded catch-up opened at `now` (asserted bounded). */
function boundedCatchUp(position: number, now: number, saved: SavedPosition = {}) {
	const core = new StreamCore({ ...saved, caughtUpTo: iso(position) }, now);
	const query = core.query(now);
	expect(query.end_time).toBeDefined();
	core.opened(now, query);
	return { core, end: Date.parse(String(query.end_time)) };
}

describe('the catch-up query of a (re)connection', () => {
	it('asks for nothing without a finite position or with one ahead of the clock', () => {
		expect(catchUpQuery(undefined, T0)).toEqual({});
		expect(catchUpQuery(Number.NaN, T0)).toEqual({});
		expect(catchUpQuery(T0 + 1, T0)).toEqual({});
		expect(new StreamCore(undefined, undefined).query(T0)).toEqual({});
	});

	it('asks for at least one backfill minute, the gap and margin rounded up, up to 5', () => {
		expect(catchUpQuery(T0, T0)).toEqual({ backfill_minutes: 1 });
		expect(catchUpQuery(T0 - 30_001, T0)).toEqual({ backfill_minutes: 2 });
		const since = T0 - 5 * MIN + CATCH_UP_MARGIN_MS;
		expect(catchUpQuery(since, T0)).toEqual({ backfill_minutes: 5 });
	});

	it('asks for start_time (margin before the position, whole seconds) past 5 minutes', () => {
		const since = T0 - 5 * MIN + CATCH_UP_MARGIN_MS - 1_500;
		expect(catchUpQuery(since, T0)).toEqual({ start_time: '2026-11-25T11:54:58Z' });
	});

	it('asks a catch-up without an end while the position is younger than the checkpoint', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0 - CHECKPOINT_MS + 1) }, T0);
		expect(core.query(T0)).toEqual({ backfill_minutes: 3 });
	});

	it('asks a bounded catch-up from margin before the position to margin before now, once the position is the checkpoint old', () => {
		const position = T0 - CHECKPOINT_MS;
		const core = new StreamCore({ caughtUpTo: iso(position) }, T0);
		expect(core.query(T0 + 400)).toEqual({
			start_time: '2026-11-25T11:57:30Z',
			end_time: '2026-11-25T11:59:30Z',
		});
	});

	it('asks no bounded catch-up while a run n8n did not start holds the position', () => {
		const position = T0 - 10 * MIN;
		const core = new StreamCore({ caughtUpTo: iso(position) }, T0);
		core.opened(T0, core.query(T0));
		core.event('held', T0);
		core.notStarted('held');
		core.closed();
		expect(core.query(T0 + MIN)).toEqual({ start_time: wire(position - CATCH_UP_MARGIN_MS) });
		// Once a copy of it started, the bounded catch-up comes back.
		core.opened(T0 + MIN, core.query(T0 + MIN));
		expect(core.event('held', T0 + MIN)).toBe('run');
		core.started('held');
		core.closed();
		expect(core.query(T0 + MIN).end_time).toBeDefined();
	});
});

describe('the position', () => {
	it('starts at the saved position, else at the activation, else nowhere (an editor test run)', () => {
		expect(new StreamCore({ caughtUpTo: iso(T0 - MIN) }, T0).caughtUpTo).toBe(T0 - MIN);
		expect(new StreamCore({}, T0).caughtUpTo).toBe(T0);
		expect(new StreamCore({ caughtUpTo: 'not a time' }, T0).caughtUpTo).toBe(T0);
		expect(new StreamCore(undefined, undefined).caughtUpTo).toBeUndefined();
	});

	it("moves to a bounded catch-up's end when the service ends its answer", () => {
		const { core, end } = boundedCatchUp(T0 - 3 * MIN, T0);
		expect(core.event('a', T0)).toBe('run');
		core.started('a');
		expect(core.caughtUpTo).toBe(T0 - 3 * MIN);
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(end);
	});

	it('does not move when a bounded catch-up is cut, nor when a connection without an end ends', () => {
		const { core } = boundedCatchUp(T0 - 3 * MIN, T0);
		core.closed();
		expect(core.ended()).toBe(false);
		expect(core.caughtUpTo).toBe(T0 - 3 * MIN);

		const live = new StreamCore({ caughtUpTo: iso(T0 - MIN) }, T0);
		live.opened(T0, live.query(T0));
		expect(live.event('b', T0 + 10 * MIN)).toBe('run');
		live.started('b');
		expect(live.ended()).toBe(false);
		expect(live.caughtUpTo).toBe(T0 - MIN);
	});

	it('does not move when the service reported a disconnect (a slow reader) before it ended a bounded catch-up', () => {
		// The service disconnects a slow reader (operational-disconnect, SlowReader); the answer can end before
		// everything up to its end_time was sent, so its end proves nothing.
		const { core } = boundedCatchUp(T0 - 3 * MIN, T0);
		expect(core.event('a', T0)).toBe('run');
		core.started('a');
		core.disconnectReported();
		expect(core.ended()).toBe(false);
		expect(core.caughtUpTo).toBe(T0 - 3 * MIN);
		// The next bounded catch-up asks for the same span again, and its end moves the position.
		const again = core.query(T0 + 1_000);
		expect(again.start_time).toBe(wire(T0 - 3 * MIN - CATCH_UP_MARGIN_MS));
		core.opened(T0 + 1_000, again);
		expect(core.event('a', T0)).toBe('drop');
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(Date.parse(String(again.end_time)));
	});

	it('stays where the catch-up started while a run on it is not known to have started', () => {
		const position = T0 - 3 * MIN;
		const { core } = boundedCatchUp(position, T0);
		core.event('slow', T0);
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(position);
	});

	it('stays before an event n8n did not start until a copy of it starts, then moves', () => {
		const position = T0 - 3 * MIN;
		const first = boundedCatchUp(position, T0);
		const core = first.core;
		core.event('refused', T0);
		core.notStarted('refused');
		expect(core.waitingForCopy).toBe(true);
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(position);
		// The next catch-up sends it again: this copy runs, and once it started the position passes it.
		const query = core.query(T0 + 1_000);
		core.opened(T0 + 1_000, query);
		expect(core.event('refused', T0 + 1_000)).toBe('run');
		expect(core.waitingForCopy).toBe(false);
		core.started('refused');
		core.closed();
		const second = core.query(T0 + 2_000);
		core.opened(T0 + 2_000, second);
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(Date.parse(String(second.end_time)));
	});

	it('never moves back', () => {
		const { core, end } = boundedCatchUp(T0 - 3 * MIN, T0);
		core.ended();
		// A bounded catch-up asked later with an earlier end (the clock stepped back) leaves it.
		core.opened(end - 5 * MIN, { start_time: wire(end - 6 * MIN), end_time: wire(end - MIN) });
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(end);
	});
});

describe('the checkpoint', () => {
	it('closes a connection without an end once the position is CHECKPOINT_MS old, not before', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0) }, T0);
		expect(core.checkpointDue(T0 + CHECKPOINT_MS)).toBe(false); // no connection
		core.opened(T0, core.query(T0));
		expect(core.checkpointDue(T0 + CHECKPOINT_MS - 1)).toBe(false);
		expect(core.checkpointDue(T0 + CHECKPOINT_MS)).toBe(true);
	});

	it('never closes a bounded catch-up, which ends by itself', () => {
		const { core } = boundedCatchUp(T0 - 10 * MIN, T0);
		expect(core.checkpointDue(T0 + 10 * MIN)).toBe(false);
	});

	it('waits while a run n8n did not start holds the position (a bounded catch-up could not move it)', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0) }, T0);
		core.opened(T0, core.query(T0));
		core.event('pending', T0);
		expect(core.checkpointDue(T0 + CHECKPOINT_MS)).toBe(false);
		core.started('pending');
		expect(core.checkpointDue(T0 + CHECKPOINT_MS)).toBe(true);
	});

	it('has no position to measure from in an editor test run', () => {
		const core = new StreamCore(undefined, undefined);
		core.opened(T0, core.query(T0));
		expect(core.checkpointDue(T0 + 60 * MIN)).toBe(false);
	});
});

describe('which copies run', () => {
	it('runs the first copy of an id and drops the others; runs every event without an id', () => {
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		expect(core.event('x', T0)).toBe('run');
		expect(core.event('x', T0)).toBe('drop');
		expect(core.event('', T0)).toBe('run');
		expect(core.event('', T0)).toBe('run');
	});

	it('drops copies of the ids a restart reads from the saved record, skipping malformed entries', () => {
		const saved = {
			caughtUpTo: iso(T0),
			handled: [['old', T0 - MIN], 'junk', [7, T0], ['bad-time', 'x']],
		} as unknown as SavedPosition;
		const core = new StreamCore(saved, T0);
		core.opened(T0, core.query(T0));
		expect(core.event('old', T0)).toBe('drop');
		expect(core.event('bad-time', T0)).toBe('drop');
		expect(core.event('7', T0)).toBe('run');
		// An id with an unreadable time is kept as handled at the position.
		expect(core.saved().handled).toEqual([
			['old', T0 - MIN],
			['bad-time', T0],
			['7', T0],
		]);
	});

	it('releases the claim of a run n8n did not start: the next copy runs', () => {
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		expect(core.waitingForCopy).toBe(false);
		core.event('r', T0);
		core.notStarted('r');
		expect(core.event('r', T0 + 1)).toBe('run');
		core.started('r');
		expect(core.event('r', T0 + 2)).toBe('drop');
	});
});

describe('what is remembered and saved', () => {
	it("saves the position and each id with the latest time it can carry: a bounded catch-up's end", () => {
		const position = T0 - 3 * MIN;
		const { core, end } = boundedCatchUp(position, T0);
		core.event('e', T0 + 5_000);
		core.started('e');
		expect(core.saved()).toEqual({ caughtUpTo: iso(position), handled: [['e', end]] });
		core.ended();
		const live = core.query(T0 + 6_000);
		core.opened(T0 + 6_000, live);
		core.event('f', T0 + 7_000);
		expect(core.saved()).toEqual({
			caughtUpTo: iso(end),
			handled: [
				['e', end],
				['f', T0 + 7_000],
			],
		});
	});

	it('remembers in an editor test run (no position) every id whose run started', () => {
		const core = new StreamCore(undefined, undefined);
		core.opened(T0, core.query(T0));
		core.event('seen', T0);
		core.started('seen');
		core.event('next', T0 + 1);
		core.started('next');
		expect(core.event('seen', T0 + 2)).toBe('drop');
	});

	it('saves no position and every id in an editor test run', () => {
		const core = new StreamCore(undefined, undefined);
		core.opened(T0, core.query(T0));
		core.event('m', T0 - 60 * MIN);
		expect(core.saved()).toEqual({ handled: [['m', T0 - 60 * MIN]] });
	});

	it('forgets ids KEEP_IDS_MS behind the position once it moves: a later copy runs again; nearer ones are kept', () => {
		const position = T0 - 20 * MIN;
		const core = new StreamCore({ caughtUpTo: iso(position) }, T0);
		core.opened(position, core.query(position));
		core.event('old', position);
		core.started('old');
		core.event('kept', T0 - 30_000 - KEEP_IDS_MS);
		core.started('kept');
		core.closed();
		core.opened(T0, core.query(T0));
		expect(core.ended()).toBe(true);
		const moved = core.caughtUpTo!;
		expect(moved).toBe(T0 - CATCH_UP_MARGIN_MS);
		expect(core.saved()).toEqual({
			caughtUpTo: iso(moved),
			handled: [['kept', moved - KEEP_IDS_MS]],
		});
		core.opened(T0, core.query(T0));
		expect(core.event('kept', T0)).toBe('drop');
		expect(core.event('old', T0)).toBe('run');
	});

	it('keeps an id whose run is not known to have started, however old its time', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0) }, T0);
		core.opened(T0, core.query(T0));
		// Stamped long before the position (a clock that stepped back), and not yet started.
		core.event('slow', T0 - 10 * MIN);
		core.event('next', T0);
		core.started('next');
		expect(core.event('slow', T0)).toBe('drop');
	});

	it(`keeps at most ${MAX_SAVED_IDS} ids in memory and in the saved record: the oldest go first`, () => {
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		for (let i = 0; i <= MAX_SAVED_IDS; i++) {
			core.event(`id${i}`, T0);
			core.started(`id${i}`);
		}
		const handled = core.saved().handled!;
		// The record drops its oldest RECORD_TRIM at a time once past the cap; memory holds the cap.
		expect(handled).toHaveLength(MAX_SAVED_IDS - RECORD_TRIM);
		expect(handled[0][0]).toBe(`id${RECORD_TRIM + 1}`);
		expect(handled[handled.length - 1][0]).toBe(`id${MAX_SAVED_IDS}`);
		expect(remembered(core)).toBe(MAX_MEMORY_IDS);
		expect(core.event(`id${MAX_SAVED_IDS}`, T0)).toBe('drop');
		expect(core.event('id1', T0)).toBe('drop');
		expect(core.event('id0', T0)).toBe('run');
	});

	it(`saves at most ${MAX_SAVED_IDS} ids even when memory holds runs not known to have started`, () => {
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		for (let i = 0; i < MAX_SAVED_IDS; i++) {
			core.event(`s${i}`, T0);
			core.started(`s${i}`);
		}
		for (let i = 0; i < MAX_PENDING; i++) core.event(`u${i}`, T0);
		const handled = core.saved().handled!;
		expect(handled.length).toBeLessThanOrEqual(MAX_SAVED_IDS);
		expect(handled.length).toBeGreaterThan(MAX_SAVED_IDS - RECORD_TRIM);
		expect(remembered(core)).toBeLessThanOrEqual(MAX_MEMORY_IDS);
		// None of them is forgotten while its run is not known to have started; the oldest started go.
		expect(core.event('u0', T0)).toBe('drop');
		expect(core.event(`s${MAX_SAVED_IDS - 1}`, T0)).toBe('drop');
		expect(handled.some(([id]) => id === 's0')).toBe(false);
	});
});

/** What the core keeps in memory (ids and pending events), read the way a memory probe would. */
const remembered = (core: StreamCore): number =>
	(core as unknown as { claims: Map<string, number> }).claims.size;
const pendingOf = (core: StreamCore): number =>
	(core as unknown as { unsettled: Map<string, number> }).unsettled.size;

describe('the cost of an event (issue 53)', () => {
	it('hands out its record without copying it: an event adds its id, the oldest leave from the front', () => {
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		for (let i = 0; i < 1_000; i++) {
			core.event(`c${i}`, T0 + 10 * i);
			core.started(`c${i}`);
		}
		const before = core.saved().handled!;
		expect(before).toHaveLength(1_000);
		core.event('next', T0 + 10_000);
		core.started('next');
		const after = core.saved().handled!;
		// The same array, one entry longer: the save costs the same however many ids are remembered.
		expect(after).toBe(before);
		expect(after).toHaveLength(1_001);
		expect(after[1_000]).toEqual(['next', T0 + 10_000]);
		// A bounded catch-up moves the position to T0 + 5 s + KEEP_IDS_MS: the ids it leaves behind
		// (the first 500) leave the same record.
		core.closed();
		const later = T0 + 5_000 + CATCH_UP_MARGIN_MS + KEEP_IDS_MS;
		core.opened(later, core.query(later));
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(T0 + 5_000 + KEEP_IDS_MS);
		expect(core.saved().handled).toBe(before);
		expect(before.map(([id]) => id)).toEqual([
			...Array.from({ length: 500 }, (_, i) => `c${500 + i}`),
			'next',
		]);
	});

	it('times never go down along the record: an id claimed after a later one is kept as long', () => {
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		core.event('live', T0 + 5_000);
		// A copy from a bounded catch-up's end (earlier than the live line before it).
		core.event('older', T0);
		expect(core.saved().handled).toEqual([
			['live', T0 + 5_000],
			['older', T0 + 5_000],
		]);
	});

	it('a released run leaves the record, which is made again from the claims', () => {
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		core.event('a', T0);
		core.event('b', T0);
		core.started('a');
		core.notStarted('b');
		expect(core.saved().handled).toEqual([['a', T0]]);
		core.event('c', T0);
		expect(core.saved().handled).toEqual([
			['a', T0],
			['c', T0],
		]);
	});
});

describe('memory bounds (issue 53)', () => {
	it(`an older record with more ids than ${MAX_MEMORY_IDS} is trimmed when read: the newest stay`, () => {
		const handled: Array<[string, number]> = [];
		for (let i = 0; i < MAX_MEMORY_IDS + 5_000; i++) handled.push([`h${i}`, T0]);
		const core = new StreamCore({ caughtUpTo: iso(T0), handled }, T0);
		expect(remembered(core)).toBeLessThanOrEqual(MAX_MEMORY_IDS);
		core.opened(T0, core.query(T0));
		expect(core.event(`h${MAX_MEMORY_IDS + 4_999}`, T0)).toBe('drop');
		expect(core.event(`h${5_000}`, T0)).toBe('drop');
	});

	it(`ids stay within ${MAX_MEMORY_IDS} on a live connection with keep-alives and none: each new id runs once`, () => {
		// The core hears no keep-alive (the shell keeps them): the same with and without them.
		const core = new StreamCore(undefined, T0);
		core.opened(T0, core.query(T0));
		let ran = 0;
		for (let i = 0; i < MAX_MEMORY_IDS + 5_000; i++) {
			if (core.event(`k${i}`, T0 + i) === 'run') ran++;
			core.started(`k${i}`);
		}
		expect(ran).toBe(MAX_MEMORY_IDS + 5_000);
		expect(remembered(core)).toBeLessThanOrEqual(MAX_MEMORY_IDS);
		// The newest MAX_MEMORY_IDS are still known: a re-sent copy of them runs nothing.
		for (let i = 5_000; i < MAX_MEMORY_IDS + 5_000; i += 997)
			expect(core.event(`k${i}`, T0 + MAX_MEMORY_IDS)).toBe('drop');
	});

	it(`at most ${MAX_PENDING} events pending: a further one is deferred, the catch-up's end holds, the next catch-up runs it once`, () => {
		const { core, end } = boundedCatchUp(T0 - 10 * MIN, T0);
		const position = core.caughtUpTo;
		// n8n settles none of these runs (its runs stall).
		for (let i = 0; i < MAX_PENDING; i++) expect(core.event(`p${i}`, T0)).toBe('run');
		expect(core.event('over1', T0)).toBe('defer');
		expect(core.event('over2', T0)).toBe('defer');
		expect(pendingOf(core)).toBe(MAX_PENDING);
		// The answer ends: a deferred event was not handled, so the position stays.
		expect(core.ended()).toBe(false);
		expect(core.caughtUpTo).toBe(position);
		for (let i = 0; i < MAX_PENDING; i++) core.started(`p${i}`);
		// The next catch-up sends everything again: the deferred run once, none of the others again.
		const query = core.query(T0 + 1_000);
		core.opened(T0 + 1_000, query);
		const ran: string[] = [];
		for (const id of ['p0', `p${MAX_PENDING - 1}`, 'over1', 'over2', 'over1'])
			if (core.event(id, T0 + 1_000) === 'run') ran.push(id);
		expect(ran).toEqual(['over1', 'over2']);
		core.started('over1');
		core.started('over2');
		expect(core.ended()).toBe(query.end_time !== undefined);
		if (query.end_time !== undefined) expect(core.caughtUpTo).toBeGreaterThan(position!);
		expect(end).toBeGreaterThan(position!);
	});

	it(`a released event whose copy never comes back is given up after ${MAX_COPY_WAIT_MS / 3_600_000} h: the position moves on`, () => {
		const { core } = boundedCatchUp(T0 - 10 * MIN, T0);
		const position = core.caughtUpTo!;
		core.event('gone', T0);
		core.notStarted('gone');
		expect(core.waitingForCopy).toBe(true);
		expect(core.expire(position + MAX_COPY_WAIT_MS - MIN)).toEqual([]);
		expect(core.ended()).toBe(true);
		// Held by the released event (its bound is the connection's start).
		expect(core.caughtUpTo).toBe(position);
		const later = position + MAX_COPY_WAIT_MS + 1;
		expect(core.expire(later)).toEqual(['gone']);
		expect(core.waitingForCopy).toBe(false);
		expect(pendingOf(core)).toBe(0);
		const query = core.query(later);
		expect(query.end_time).toBeDefined();
		core.opened(later, query);
		expect(core.ended()).toBe(true);
		expect(core.caughtUpTo).toBe(Date.parse(String(query.end_time)));
		// A copy that does come after all still runs once.
		core.opened(later, core.query(later));
		expect(core.event('gone', later)).toBe('run');
	});
});

describe('a main that leads again (resume)', () => {
	it("takes a saved position ahead of its memory, with the record's ids", () => {
		const core = new StreamCore({ caughtUpTo: iso(T0 - 5 * MIN) }, T0);
		core.resume({ caughtUpTo: iso(T0 - MIN), handled: [['other', T0 - MIN]] });
		expect(core.caughtUpTo).toBe(T0 - MIN);
		core.opened(T0, core.query(T0));
		expect(core.event('other', T0)).toBe('drop');
	});

	it('keeps its own position when the saved one is behind or unreadable, and still takes the ids', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0 - MIN) }, T0);
		core.resume({ caughtUpTo: iso(T0 - 5 * MIN), handled: [['behind', T0 - 2 * MIN]] });
		expect(core.caughtUpTo).toBe(T0 - MIN);
		core.resume({ caughtUpTo: 'garbage' });
		expect(core.caughtUpTo).toBe(T0 - MIN);
		core.opened(T0, core.query(T0));
		expect(core.event('behind', T0)).toBe('drop');
	});

	it('takes a saved position when it had none, but not past a run here not known to have started', () => {
		const core = new StreamCore(undefined, undefined);
		core.opened(T0, {});
		core.event('pending', T0);
		core.resume({ caughtUpTo: iso(T0 + 5 * MIN) });
		expect(core.caughtUpTo).toBe(T0);
		const fresh = new StreamCore(undefined, undefined);
		fresh.resume({ caughtUpTo: iso(T0 + 5 * MIN) });
		expect(fresh.caughtUpTo).toBe(T0 + 5 * MIN);
	});

	it('keeps no position and no ids from no record or an unreadable one', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0) }, T0);
		core.resume(undefined);
		expect(core.caughtUpTo).toBe(T0);
		const editor = new StreamCore(undefined, undefined);
		editor.resume({ caughtUpTo: 'garbage' });
		expect(editor.caughtUpTo).toBeUndefined();
		expect(editor.saved()).toEqual({ handled: [] });
	});

	it('stops waiting for a copy of an event the other leader handled', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0) }, T0);
		core.opened(T0, core.query(T0));
		core.event('theirs', T0);
		core.notStarted('theirs');
		expect(core.waitingForCopy).toBe(true);
		core.resume({ caughtUpTo: iso(T0), handled: [['theirs', T0]] });
		expect(core.waitingForCopy).toBe(false);
		expect(core.checkpointDue(T0 + CHECKPOINT_MS)).toBe(true);
	});

	it('forgets what the position it takes leaves behind', () => {
		const core = new StreamCore({ caughtUpTo: iso(T0 - 20 * MIN) }, T0);
		core.opened(T0 - 20 * MIN, core.query(T0 - 20 * MIN));
		core.event('stale', T0 - 20 * MIN);
		core.started('stale');
		core.closed();
		core.resume({ caughtUpTo: iso(T0) });
		expect(core.saved()).toEqual({ caughtUpTo: iso(T0), handled: [] });
		core.opened(T0, core.query(T0));
		expect(core.event('stale', T0)).toBe('run');
	});
});
