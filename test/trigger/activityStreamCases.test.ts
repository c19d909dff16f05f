/**
 * Cases of issue 51 on the Activity Stream Trigger's core (nodes/triggers/stream/streamCore.ts), driven
 * the way the shell drives it. Each failed on the core before its fix; the shell's cases (a keep-alive
 * inside a backlog, a failed start then a restart) are in activityStream.test.ts (51a, 51b).
 */
import { StreamCore } from '../../nodes/triggers/stream/streamCore';

const T0 = Date.parse('2026-11-25T12:00:00.000Z');

/** The ids a connection opened at `now` hands to n8n, of `lines` sent in that order. */
function deliver(core: StreamCore, now: number, lines: string[]): string[] {
	core.opened(now, core.query(now));
	const ran: string[] = [];
	for (const id of lines)
		if (core.event(id, now) === 'run') {
			ran.push(id);
			core.started(id);
		}
	return ran;
}

/** What the core keeps in memory (ids), read the way a memory probe would. */
const remembered = (core: StreamCore): number =>
	(core as unknown as { claims: Map<string, number> }).claims.size;

describe('issue 51, the Activity Stream Trigger core', () => {
	it('51c: 2,100 events inside the catch-up window, a restart, no execution rows: none runs twice', () => {
		// Before the fix the static data kept the newest 2,000 ids: the restart's catch-up re-sent the
		// oldest 100 and nothing remembered them (n8n kept no row for their deduplication keys).
		const ids = Array.from({ length: 2_100 }, (_, i) => String(9_000_000 + i));
		const first = new StreamCore(undefined, T0);
		expect(deliver(first, T0 + 1_000, ids)).toHaveLength(2_100);
		const saved = JSON.parse(JSON.stringify(first.saved()));
		// n8n restarts 20 s later: the catch-up (backfill_minutes) re-sends all of them.
		const restarted = new StreamCore(saved, T0 + 21_000);
		expect(restarted.query(T0 + 21_000)).toEqual({ backfill_minutes: 1 });
		expect(deliver(restarted, T0 + 21_000, ids)).toEqual([]);
	});

	it('51d: a catch-up that never hears a keep-alive keeps its memory within the cap', () => {
		// Before the fix ids were trimmed only when a keep-alive completed the catch-up: 25,000 events of
		// a long backlog stayed in memory, past the cap of 20,000.
		const core = new StreamCore({ caughtUpTo: new Date(T0 - 60 * 60_000).toISOString() }, T0);
		core.opened(T0, core.query(T0));
		for (let i = 0; i < 25_000; i++) {
			const id = String(1_000_000 + i);
			if (core.event(id, T0 + i) === 'run') core.started(id);
		}
		expect(remembered(core)).toBeLessThanOrEqual(20_000);
	});
});
