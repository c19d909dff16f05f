/**
 * The persisted form of the trigger's duplicate record: n8n rewrites the whole static data column on
 * every save, so the record is kept short (a 48-bit hash per id, times per minute), while every form
 * earlier versions wrote is still read, by a restarted process or another one.
 */
import type { TriggerState } from '../../nodes/triggers/webhook/state';
import {
	DEDUPE_MAX_AGE_MS,
	DEDUPE_MAX_IDS,
	encodeRecord,
	ID_HASH_BITS,
	idHash,
	persistedIds,
	triggerKey,
} from '../../nodes/triggers/webhook/state';
import { newProcess, type StateModule } from './helpers';

const KEY = 'wf:node';
const MINUTE = 60_000;
const t0 = Date.parse('2026-01-01T00:00:00Z');
/** Event ids as the service makes them: 19 digits. */
const eventId = (i: number) => `1864${String(i).padStart(15, '0')}`;

/** One delivery whose run starts, in process `p`: its new ids are claimed, then recorded as run. */
function handle(p: StateModule, state: TriggerState, ids: string[], at: number): Set<string> {
	const fresh = p.claimNewIds(KEY, state, ids, at);
	p.persistClaimed(KEY, state, fresh, Date.now());
	return fresh;
}

describe('the record written by earlier versions', () => {
	it('as a JSON string of [id, time] pairs: its ids are duplicates in a new process, and the next write keeps them in the new form', () => {
		const old = [
			['a1', t0 - 5000],
			['a2', t0 - 4000],
		];
		const state: TriggerState = { seen: JSON.stringify(old) };
		expect(persistedIds(state)).toEqual([
			[idHash('a1'), t0 - 5000],
			[idHash('a2'), t0 - 4000],
		]);
		const p = newProcess();
		expect(handle(p, state, ['a1', 'a2', 'a3'], t0)).toEqual(new Set(['a3']));
		expect(typeof state.seen).toBe('string');
		expect(String(state.seen).startsWith('h48;')).toBe(true);
		const restarted = newProcess();
		expect(restarted.claimNewIds(KEY, { seen: state.seen }, ['a1', 'a2', 'a3', 'a4'], t0)).toEqual(
			new Set(['a4']),
		);
	});

	it('as an object of id -> time: its ids are duplicates in a new process', () => {
		const state: TriggerState = { seen: { b1: t0 - 1000, b2: t0 - 500 } };
		expect(persistedIds(state).map(([hash]) => hash)).toEqual([idHash('b1'), idHash('b2')]);
		expect(newProcess().claimNewIds(KEY, state, ['b1', 'b2', 'b3'], t0)).toEqual(new Set(['b3']));
	});

	it('a record of another process in the old form is merged with this process written in the new one', () => {
		const p = newProcess();
		const mine: TriggerState = {};
		handle(p, mine, ['c1'], t0);
		// An older n8n process (not yet updated) saved its own string over ours.
		const theirs: TriggerState = { seen: JSON.stringify([['c2', t0 + 1]]) };
		expect(handle(p, theirs, ['c1', 'c2', 'c3'], t0 + 2)).toEqual(new Set(['c3']));
		expect(
			newProcess().claimNewIds(KEY, { seen: theirs.seen }, ['c1', 'c2', 'c3', 'c4'], t0 + 3),
		).toEqual(new Set(['c4']));
	});
});

describe('the record in its current form', () => {
	it('round-trips: every id a process wrote is a duplicate in a new process, with its minute', () => {
		const p = newProcess();
		const state: TriggerState = {};
		const ids = Array.from({ length: 300 }, (_, i) => eventId(i));
		// Three minutes of deliveries, 100 per minute.
		for (const [i, id] of ids.entries())
			handle(p, state, [id], t0 + 1 + Math.floor(i / 100) * MINUTE + i);
		const read = persistedIds(state);
		expect(read.map(([hash]) => hash)).toEqual(ids.map(idHash));
		// Times are kept per minute: each rounds up to the end of its minute, never down.
		expect(new Set(read.map(([, at]) => at))).toEqual(
			new Set([t0 + MINUTE, t0 + 2 * MINUTE, t0 + 3 * MINUTE]),
		);
		expect(encodeRecord(read)).toBe(state.seen);
		const restarted = newProcess();
		expect(
			restarted.claimNewIds(KEY, { seen: state.seen }, [...ids, 'new'], t0 + 4 * MINUTE),
		).toEqual(new Set(['new']));
	});

	it('keeps an id for 26 hours after it was seen, at most a minute longer, after a round trip', () => {
		const at = t0 + 12_345;
		const p = newProcess();
		const state: TriggerState = {};
		handle(p, state, ['kept'], at);
		const seen = state.seen;
		expect(newProcess().claimNewIds(KEY, { seen }, ['kept'], at + DEDUPE_MAX_AGE_MS)).toEqual(
			new Set(),
		);
		expect(
			newProcess().claimNewIds(KEY, { seen }, ['kept'], at + DEDUPE_MAX_AGE_MS + MINUTE),
		).toEqual(new Set(['kept']));
	});

	it('takes 8 characters per id whatever the ids look like, about 16 KB for a full record', () => {
		const write = (id: (i: number) => string) => {
			const p = newProcess();
			const state: TriggerState = {};
			for (let i = 0; i < DEDUPE_MAX_IDS; i++) handle(p, state, [id(i)], t0 + i * 10);
			return String(state.seen);
		};
		const short = write(eventId);
		const long = write((i) => `${'x'.repeat(200)}-${i}`);
		expect(short.length).toBe(long.length);
		// 2,000 ids seen within 20 s: one or two minute groups.
		expect(short.length).toBeGreaterThanOrEqual(DEDUPE_MAX_IDS * 8);
		expect(short.length).toBeLessThan(DEDUPE_MAX_IDS * 8 + 40);
		// The pairs form of the same record, for comparison.
		const pairs = JSON.stringify(
			Array.from({ length: DEDUPE_MAX_IDS }, (_, i) => [eventId(i), t0 + i * 10]),
		);
		expect(pairs.length).toBeGreaterThan(4.5 * short.length);
	});

	it('that is malformed in part: the readable minutes count, the rest is skipped', () => {
		const good = encodeRecord([[idHash('d1'), t0]]);
		const minute = (t0 / MINUTE).toString(36);
		const state: TriggerState = {
			seen: `${good};zz:short;!!:${idHash('d2')};Z${minute}:${idHash('d3')};${minute}:${idHash('d4')}!`,
		};
		expect(persistedIds(state)).toEqual([[idHash('d1'), t0]]);
		expect(newProcess().claimNewIds(KEY, state, ['d1', 'd2'], t0)).toEqual(new Set(['d2']));
	});
});

describe('a record this version cannot read', () => {
	it('counts as none, whatever it holds: JSON that is not a list, or nothing at all', () => {
		expect(persistedIds({ seen: JSON.stringify({ a: t0 }) })).toEqual([]);
		expect(persistedIds({ seen: 'not json' })).toEqual([]);
		expect(persistedIds({ seen: null } as unknown as TriggerState)).toEqual([]);
		expect(
			newProcess().claimNewIds(KEY, { seen: null } as unknown as TriggerState, ['a'], t0),
		).toEqual(new Set(['a']));
	});

	it('in the older forms, skips every entry that is not an id with its time', () => {
		const pairs = [['a', 5], 'junk', [7, 9], ['b', 'x'], { 0: 'z', 1: 3 }, ['c', 6]];
		expect(persistedIds({ seen: JSON.stringify(pairs) })).toEqual([
			[idHash('a'), 5],
			[idHash('c'), 6],
		]);
		expect(persistedIds({ seen: { a: 5, b: 'x' } as unknown as Record<string, number> })).toEqual([
			[idHash('a'), 5],
		]);
	});
});

describe('two triggers of one workflow', () => {
	it('keep separate records: the same event id is new to each', () => {
		const p = newProcess();
		expect(p.claimNewIds(triggerKey('wf', 'node-1'), {}, ['same'], t0)).toEqual(new Set(['same']));
		expect(p.claimNewIds(triggerKey('wf', 'node-2'), {}, ['same'], t0)).toEqual(new Set(['same']));
	});
});

describe('hash collisions', () => {
	it('ids are hashed to 48 bits, 8 base64url characters', () => {
		expect(ID_HASH_BITS).toBe(48);
		expect(idHash('1864000000000000000')).toMatch(/^[A-Za-z0-9_-]{8}$/);
		expect(idHash('a')).not.toBe(idHash('b'));
	});

	it('the bits of the hash are uniform: cut to 16 bits, new events hit a record of 2,000 at the rate n / 2^16, so at 48 bits the rate is 2,000 / 2^48 ≈ 7.1e-12 per new event', () => {
		// A false duplicate needs a new event's hash to equal one in the record. With uniform hashes
		// the chance is 1 - (1 - 2^-b)^n ≈ n / 2^b per new event; too rare to observe at 48 bits, it is
		// measured on the first 16 bits of the same hashes, where it is about 3%.
		const bits16 = (id: string) => Buffer.from(idHash(id), 'base64url').readUInt16BE(0);
		const record = new Set(Array.from({ length: DEDUPE_MAX_IDS }, (_, i) => bits16(eventId(i))));
		const trials = 100_000;
		let hits = 0;
		for (let i = 0; i < trials; i++) if (record.has(bits16(eventId(DEDUPE_MAX_IDS + i)))) hits++;
		const expected = trials * (record.size / 2 ** 16);
		// Binomial: 3 standard deviations of ~54 around ~3,000.
		expect(Math.abs(hits - expected)).toBeLessThan(3 * Math.sqrt(expected));
		// And at full width: no two of 200,000 ids share a hash (about 7e-5 would, by chance).
		const full = new Set(Array.from({ length: 200_000 }, (_, i) => idHash(eventId(i))));
		expect(full.size).toBe(200_000);
		expect(DEDUPE_MAX_IDS / 2 ** ID_HASH_BITS).toBeLessThan(1e-11);
	});
});
