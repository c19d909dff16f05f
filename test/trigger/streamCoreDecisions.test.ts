/**
 * The Activity Stream Trigger's decisions (nodes/PlatformTrigger/streamCore.ts), one at a time: where
 * the position goes, what a catch-up asks for, what is remembered and what is saved. The explorer
 * (activityStreamProperty.test.ts) holds "every event runs once", which a position that never moves
 * also holds (a catch-up from the activation re-sends everything, and the claims drop it); these
 * tests hold the rest. Each was written for mutants that `npm run test:mutation` left alive
 * (bench/results/mutation.md).
 */
import {
	CATCH_UP_MARGIN_MS,
	KEEP_IDS_MS,
	MAX_SAVED_IDS,
	StreamCore,
	catchUpQuery,
} from '../../nodes/PlatformTrigger/streamCore';

const MIN = 60_000;
const T0 = Date.parse('2026-11-25T12:00:00.000Z');
/** The cap on ids in memory (streamCore's MAX_MEMORY_IDS, not exported). */
const MAX_MEMORY_IDS = 20_000;

/** A core with `position`, connected at `now` and caught up (no catch-up asked). */
function caughtUpCore(
	now = T0,
	saved?: { caughtUpTo?: string; handled?: Array<[string, number]> },
) {
	const core = new StreamCore(saved, now);
	const query = core.query(now);
	core.opened(now, query);
	if (Object.keys(query).length > 0) core.keepAlive(now);
	return core;
}

describe('the catch-up query', () => {
	it('asks for nothing without a finite position or with one ahead of the clock', () => {
		expect(catchUpQuery(undefined, T0)).toEqual({});
		expect(catchUpQuery(Number.NaN, T0)).toEqual({});
		expect(catchUpQuery(T0 + 1, T0)).toEqual({});
	});

	it('asks for 5 backfill minutes when the gap and margin are exactly 5 minutes, start_time past them', () => {
		const since = T0 - 5 * MIN + CATCH_UP_MARGIN_MS;
		expect(catchUpQuery(since, T0)).toEqual({ backfill_minutes: 5 });
		expect(catchUpQuery(since - 1_000, T0)).toEqual({
			start_time: new Date(since - 1_000 - CATCH_UP_MARGIN_MS).toISOString().replace('.000Z', 'Z'),
		});
	});
});

describe('the position', () => {
	it('is where a connection that needs no catch-up opened, at once (an editor test run too)', () => {
		const core = new StreamCore(undefined, undefined);
		expect(core.caughtUpTo).toBeUndefined();
		expect(core.query(T0)).toEqual({});
		core.opened(T0, {});
		expect(core.caughtUpTo).toBe(T0);
	});

	it('stays where a catch-up started until its keep-alive, then moves to the keep-alive', () => {
		const start = T0 - 2 * MIN;
		const core = new StreamCore({ caughtUpTo: new Date(start).toISOString() }, T0);
		const query = core.query(T0);
		expect(query).toEqual({ backfill_minutes: 3 });
		core.opened(T0, query);
		expect(core.event('backlog', T0 + 1_000)).toBe('run');
		core.started('backlog');
		expect(core.caughtUpTo).toBe(start);
		core.keepAlive(T0 + 2_000);
		expect(core.caughtUpTo).toBe(T0 + 2_000);
	});

	it('does not move on a keep-alive or an event without a connection', () => {
		const core = caughtUpCore();
		core.closed();
		core.keepAlive(T0 + MIN);
		expect(core.event('after-close', T0 + 2 * MIN)).toBe('run');
		core.started('after-close');
		expect(core.caughtUpTo).toBe(T0);
	});

	it('follows the events of a caught-up connection as their runs start', () => {
		const core = caughtUpCore();
		core.event('a', T0 + 1_000);
		core.event('b', T0 + 2_000);
		expect(core.caughtUpTo).toBe(T0 + 1_000);
		core.started('a');
		expect(core.caughtUpTo).toBe(T0 + 2_000);
		core.started('b');
		expect(core.caughtUpTo).toBe(T0 + 2_000);
	});

	it('stays before an event whose run n8n did not start, also when a later copy of it comes', () => {
		const core = caughtUpCore();
		core.event('a', T0 + 1_000);
		core.notStarted('a');
		expect(core.waitingForCopy).toBe(true);
		core.keepAlive(T0 + 10_000);
		expect(core.caughtUpTo).toBe(T0 + 1_000);
		expect(core.event('a', T0 + 20_000)).toBe('run');
		expect(core.waitingForCopy).toBe(false);
		core.keepAlive(T0 + 30_000);
		expect(core.caughtUpTo).toBe(T0 + 1_000);
		core.started('a');
		expect(core.caughtUpTo).toBe(T0 + 30_000);
	});

	it('is not waiting for a copy while every unsettled run is still claimed', () => {
		const core = caughtUpCore();
		core.event('a', T0 + 1_000);
		expect(core.waitingForCopy).toBe(false);
	});

	it('never goes back: a saved position ahead of the clock (the clock was set back) stays', () => {
		const ahead = T0 + 5 * MIN;
		const core = caughtUpCore(T0, { caughtUpTo: new Date(ahead).toISOString() });
		expect(core.caughtUpTo).toBe(ahead);
		core.event('a', T0 + 1_000);
		core.started('a');
		expect(core.caughtUpTo).toBe(ahead);
	});
});

describe('the ids it remembers', () => {
	it('runs every event without an id, and drops a second copy of one with an id', () => {
		const core = caughtUpCore();
		expect(core.event('', T0 + 1)).toBe('run');
		expect(core.event('', T0 + 2)).toBe('run');
		expect(core.event('x', T0 + 3)).toBe('run');
		expect(core.event('x', T0 + 4)).toBe('drop');
	});

	it('reads only [id, time] entries with a string id from the static data', () => {
		const handled = [null, 'ab', [5, T0], ['kept', T0]] as unknown as Array<[string, number]>;
		const core = caughtUpCore(T0, { caughtUpTo: new Date(T0).toISOString(), handled });
		expect(core.saved().handled).toEqual([['kept', T0]]);
		expect(core.event('a', T0 + 1)).toBe('run');
		expect(core.event('kept', T0 + 2)).toBe('drop');
	});

	it(`keeps an id until ${KEEP_IDS_MS} ms before the position, not after`, () => {
		const core = caughtUpCore();
		core.event('a', T0);
		core.started('a');
		core.keepAlive(T0 + KEEP_IDS_MS);
		expect(core.event('a', T0 + KEEP_IDS_MS)).toBe('drop');
		core.keepAlive(T0 + KEEP_IDS_MS + 1);
		expect(core.event('a', T0 + KEEP_IDS_MS + 1)).toBe('run');
	});

	it(`keeps at most ${MAX_MEMORY_IDS} ids in memory, the oldest settled one forgotten first`, () => {
		const core = caughtUpCore();
		core.event('unsettled', T0);
		for (let i = 1; i < MAX_MEMORY_IDS; i++) {
			core.event(`e${i}`, T0);
			core.started(`e${i}`);
		}
		// Exactly at the cap: all remembered.
		expect(core.event('e1', T0)).toBe('drop');
		core.event('one-more', T0);
		core.started('one-more');
		// Past it: the oldest settled id goes; the unsettled one (its run not started) stays.
		expect(core.event('unsettled', T0)).toBe('drop');
		expect(core.event('e2', T0)).toBe('drop');
		expect(core.event('e1', T0)).toBe('run');
	});
});

describe('the static data it saves', () => {
	it('saves no position before it has one', () => {
		const core = new StreamCore(undefined, undefined);
		core.event('a', T0);
		expect(core.saved()).toEqual({ handled: [['a', T0]] });
	});

	it(`saves the position and the ids of the last ${KEEP_IDS_MS} ms before it, the boundary included`, () => {
		const at = T0 + 1 + KEEP_IDS_MS;
		// Saved out of time order, so that the memory still holds 'old' behind 'edge' (it forgets from
		// the front); the saved copy holds only what a catch-up from the position re-sends.
		const core = caughtUpCore(at, {
			caughtUpTo: new Date(at).toISOString(),
			handled: [
				['edge', T0 + 1],
				['old', T0],
			],
		});
		expect(core.event('old', at)).toBe('drop');
		expect(core.saved()).toEqual({
			caughtUpTo: new Date(at).toISOString(),
			handled: [['edge', T0 + 1]],
		});
	});

	it(`saves at most the newest ${MAX_SAVED_IDS} ids`, () => {
		const core = caughtUpCore();
		for (let i = 0; i <= MAX_SAVED_IDS; i++) {
			core.event(`e${i}`, T0);
			core.started(`e${i}`);
		}
		const handled = core.saved().handled ?? [];
		expect(handled).toHaveLength(MAX_SAVED_IDS);
		expect(handled[0][0]).toBe('e1');
		expect(handled[MAX_SAVED_IDS - 1][0]).toBe(`e${MAX_SAVED_IDS}`);
	});
});
