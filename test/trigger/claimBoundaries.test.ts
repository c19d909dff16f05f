/**
 * The webhook trigger's duplicate check (DeliveryMemory.claimNewIds in nodes/triggers/webhook/state.ts)
 * at its edges: an event without an id, a copy exactly 26 hours after the first, an orphaned claim
 * exactly ORPHANED_CLAIM_MS old; another process's record read at 26 hours, near the 2,000-id bound,
 * and without this process's ids. Written for mutants that `npm run test:mutation` left alive
 * (bench/results/mutation.md).
 */
import type { TriggerState } from '../../nodes/triggers/webhook/state';
import {
	DEDUPE_MAX_AGE_MS,
	DEDUPE_MAX_IDS,
	DeliveryMemory,
	idHash,
	ORPHANED_CLAIM_MS,
	persistedIds,
} from '../../nodes/triggers/webhook/state';

const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const KEY = 'workflow-1:node-1';

describe('the duplicate check at its edges', () => {
	it('runs every event without an id, each time it comes', () => {
		const memory = new DeliveryMemory();
		expect([...memory.claimNewIds(KEY, {}, [''], T0)]).toEqual(['']);
		expect([...memory.claimNewIds(KEY, {}, [''], T0 + 1)]).toEqual(['']);
	});

	it('drops a copy that comes exactly 26 hours after the first, and runs one a millisecond later', () => {
		const memory = new DeliveryMemory();
		expect(memory.claimNewIds(KEY, {}, ['a'], T0).has('a')).toBe(true);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + DEDUPE_MAX_AGE_MS).size).toBe(0);
		const later = new DeliveryMemory();
		later.claimNewIds(KEY, {}, ['a'], T0);
		expect(later.claimNewIds(KEY, {}, ['a'], T0 + DEDUPE_MAX_AGE_MS + 1).has('a')).toBe(true);
	});

	it(`lets a copy take over a claim whose caller hung up once the claim is ${ORPHANED_CLAIM_MS} ms old, not before`, () => {
		const memory = new DeliveryMemory();
		const token = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, {}, ['a'], T0, token);
		memory.callerHungUp(KEY, token, T0 + 10_000);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + ORPHANED_CLAIM_MS - 1).size).toBe(0);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + ORPHANED_CLAIM_MS).has('a')).toBe(true);
	});

	/** One process's delivery: claims `ids` and, their runs started, writes its record into `state`. */
	function run(memory: DeliveryMemory, state: TriggerState, ids: string[], now: number): void {
		const token = memory.answerOpened(KEY, now);
		const fresh = memory.claimNewIds(KEY, state, ids, now, token);
		memory.recordStarted(KEY, state, fresh, token, now);
	}

	it('another process’s record read exactly 26 hours after its id was seen still drops the copy; a millisecond later it runs', () => {
		// T0 is a minute's start: the record keeps the minute's end, which here is T0 itself.
		const state: TriggerState = {};
		run(new DeliveryMemory(), state, ['a'], T0);
		expect(persistedIds(state)).toEqual([[idHash('a'), T0]]);
		expect(
			new DeliveryMemory().claimNewIds(KEY, { ...state }, ['a'], T0 + DEDUPE_MAX_AGE_MS).size,
		).toBe(0);
		expect(
			new DeliveryMemory()
				.claimNewIds(KEY, { ...state }, ['a'], T0 + DEDUPE_MAX_AGE_MS + 1)
				.has('a'),
		).toBe(true);
	});

	it('merging another process’s older record past 2,000 ids forgets the oldest ids, not this process’s newest', () => {
		// Process A ran 1,500 events in the first hour; process B 1,000 in the third.
		const older: TriggerState = {};
		const a = new DeliveryMemory();
		for (let i = 0; i < 1500; i++) run(a, older, [`a${i}`], T0 + i * 2000);
		const b = new DeliveryMemory();
		const own: TriggerState = {};
		const bIds = Array.from({ length: 1000 }, (_, i) => `b${i}`);
		for (let i = 0; i < bIds.length; i++) run(b, own, [bIds[i]], T0 + 2 * 3_600_000 + i * 1000);
		// A delivery reaches B with A's copy of the static data: B merges it (2,500 ids, then one new).
		const now = T0 + 3 * 3_600_000;
		run(b, older, ['new'], now);
		expect(persistedIds(older)).toHaveLength(DEDUPE_MAX_IDS);
		// Every one of B's own events is still a duplicate; A's 501 oldest are the ones let go.
		expect(b.claimNewIds(KEY, older, bIds, now + 1).size).toBe(0);
		expect(b.claimNewIds(KEY, older, ['a500', 'a501'], now + 2)).toEqual(new Set(['a500']));
	});

	it('a record another process wrote without this process’s ids gets them back at this process’s next write, even one with nothing new', () => {
		const b = new DeliveryMemory();
		const mine: TriggerState = {};
		run(b, mine, ['b'], T0);
		// Process A saved from an older copy: its record has its own event and not B's.
		const theirs: TriggerState = {};
		run(new DeliveryMemory(), theirs, ['a'], T0 + 1000);
		expect(persistedIds(theirs).map(([hash]) => hash)).toEqual([idHash('a')]);
		// A copy of A's event reaches B with A's record: nothing runs, and B's write puts 'b' back.
		const token = b.answerOpened(KEY, T0 + 5000);
		expect(b.claimNewIds(KEY, theirs, ['a'], T0 + 5000, token).size).toBe(0);
		expect(b.recordStarted(KEY, theirs, [], token, T0 + 5000)).toBe(true);
		expect(new Set(persistedIds(theirs).map(([hash]) => hash))).toEqual(
			new Set([idHash('a'), idHash('b')]),
		);
	});
});
