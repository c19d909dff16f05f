/**
 * The webhook trigger's delivery memory (DeliveryMemory in nodes/triggers/webhook/state.ts) outside
 * the duplicate check itself: what a copy waiting on a claim learns of it (outcomeOf), which
 * delivery's hang-up orphans which claims, the group commit's time rule, and the record a restart
 * reads. Each test was written for a mutant that `npm run test:mutation` left alive
 * (bench/results/mutation.md, "state.ts (outside `claimNewIds`)").
 */
// @ts-nocheck

import {
	DEDUPE_MAX_AGE_MS,
	DeliveryMemory,
	ORPHANED_CLAIM_MS,
	WRITE_AT_LEAST_EVERY_MS,
} from '../../nodes/triggers/webhook/state';

const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const KEY = 'workflow-1:node-1';

describe('what a copy learns of the claim it waits on', () => {
	it(`a claim whose caller hung up is released once it is ${ORPHANED_CLAIM_MS} ms old, pending a millisecond before`, () => {
		const memory = new DeliveryMemory();
		const token = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, {}, ['a'], T0, token);
		memory.callerHungUp(KEY, token, T0 + 10_000);
		expect(memory.outcomeOf(KEY, 'a', T0 + ORPHANED_CLAIM_MS - 1)).toBe('pending');
		expect(memory.outcomeOf(KEY, 'a', T0 + ORPHANED_CLAIM_MS)).toBe('released');
	});

	it('a claim whose caller is still waiting stays pending however long n8n takes', () => {
		const memory = new DeliveryMemory();
		const token = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, {}, ['a'], T0, token);
		expect(memory.outcomeOf(KEY, 'a', T0 + 10 * ORPHANED_CLAIM_MS)).toBe('pending');
	});

	it('an event whose run started counts as started for 26 hours, to the millisecond, and not after', () => {
		const memory = new DeliveryMemory();
		const token = memory.answerOpened(KEY, T0);
		const fresh = memory.claimNewIds(KEY, {}, ['a'], T0, token);
		memory.recordStarted(KEY, {}, fresh, token, T0 + 5);
		expect(memory.outcomeOf(KEY, 'a', T0 + DEDUPE_MAX_AGE_MS)).toBe('started');
		expect(memory.outcomeOf(KEY, 'a', T0 + DEDUPE_MAX_AGE_MS + 1)).toBe('released');
	});

	it('an event this process never claimed is released: a copy may claim it', () => {
		const memory = new DeliveryMemory();
		expect(memory.outcomeOf(KEY, 'never', T0)).toBe('released');
		memory.claimNewIds(KEY, {}, ['other'], T0);
		expect(memory.outcomeOf(KEY, 'never', T0)).toBe('released');
	});
});

describe('a caller that hangs up', () => {
	it('orphans the claims of its own delivery only: another delivery’s claim stays pending', () => {
		const memory = new DeliveryMemory();
		const gone = memory.answerOpened(KEY, T0);
		const waiting = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, {}, ['a'], T0, gone);
		memory.claimNewIds(KEY, {}, ['b'], T0, waiting);
		memory.callerHungUp(KEY, gone, T0 + 10_000);
		const later = T0 + ORPHANED_CLAIM_MS;
		expect(memory.outcomeOf(KEY, 'a', later)).toBe('released');
		expect(memory.outcomeOf(KEY, 'b', later)).toBe('pending');
		// A copy of b arriving then waits for b's run rather than running it a second time.
		expect(memory.claimNewIds(KEY, {}, ['a', 'b'], later)).toEqual(new Set(['a']));
	});
});

describe('the group commit’s time rule', () => {
	it(`a delivery with nothing new writes once the last write is ${WRITE_AT_LEAST_EVERY_MS} ms old, even with another delivery in flight`, () => {
		const memory = new DeliveryMemory();
		const state = {};
		const first = memory.answerOpened(KEY, T0);
		memory.recordStarted(KEY, state, memory.claimNewIds(KEY, state, ['a'], T0, first), first, T0);
		memory.answerOpened(KEY, T0 + 1); // another delivery, still being answered
		const tooSoon = memory.answerOpened(KEY, T0 + 2);
		memory.claimNewIds(KEY, state, ['a'], T0 + 2, tooSoon);
		memory.noteReceived(KEY, T0 + 2);
		expect(memory.recordStarted(KEY, state, [], tooSoon, T0 + WRITE_AT_LEAST_EVERY_MS - 1)).toBe(
			false,
		);
		const due = memory.answerOpened(KEY, T0 + 3);
		memory.claimNewIds(KEY, state, ['a'], T0 + 3, due);
		expect(memory.recordStarted(KEY, state, [], due, T0 + WRITE_AT_LEAST_EVERY_MS)).toBe(true);
	});
});

describe('releasing the claims of a delivery n8n did not start', () => {
	it('an event that ran in another process meanwhile stays a duplicate here', () => {
		const here = new DeliveryMemory();
		const elsewhere = new DeliveryMemory();
		const token = here.answerOpened(KEY, T0);
		here.claimNewIds(KEY, {}, ['a'], T0, token);
		// Another process ran a copy of a and saved its record; a delivery here reads that row.
		const row = {};
		const theirs = elsewhere.answerOpened(KEY, T0 + 1);
		elsewhere.recordStarted(
			KEY,
			row,
			elsewhere.claimNewIds(KEY, row, ['a'], T0 + 1, theirs),
			theirs,
			T0 + 2,
		);
		here.claimNewIds(KEY, row, ['b'], T0 + 3);
		expect(here.releaseClaimed(KEY, ['a'], token)).toEqual([]);
		expect(here.claimNewIds(KEY, {}, ['a'], T0 + 4).size).toBe(0);
	});

	it('releases only the claims of the delivery named, and a copy then runs them', () => {
		const memory = new DeliveryMemory();
		const failed = memory.answerOpened(KEY, T0);
		const other = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, {}, ['a'], T0, failed);
		memory.claimNewIds(KEY, {}, ['b'], T0, other);
		expect(memory.releaseClaimed(KEY, ['a', 'b'], failed)).toEqual(['a']);
		expect(memory.claimNewIds(KEY, {}, ['a', 'b'], T0 + 1)).toEqual(new Set(['a']));
	});

	it('of a trigger this process holds nothing of: none', () => {
		expect(new DeliveryMemory().releaseClaimed(KEY, ['a'])).toEqual([]);
	});
});

describe('the record’s bound', () => {
	it(`keeps ${2000} ids: the oldest is still a duplicate at 2,000, forgotten at 2,001`, () => {
		const memory = new DeliveryMemory();
		const ids = Array.from({ length: 2000 }, (_, i) => `id-${i}`);
		for (const [i, id] of ids.entries()) memory.claimNewIds(KEY, {}, [id], T0 + i);
		expect(memory.claimNewIds(KEY, {}, ['id-0'], T0 + 2000).size).toBe(0);
		memory.claimNewIds(KEY, {}, ['id-2000'], T0 + 2001);
		expect(memory.claimNewIds(KEY, {}, ['id-0'], T0 + 2002).has('id-0')).toBe(true);
	});
});

describe('events n8n did not start', () => {
	it('are remembered from the first copy that failed: a later failed copy does not move that time', () => {
		const memory = new DeliveryMemory();
		expect(memory.notRunSince(KEY, 'a', T0)).toBe(T0);
		expect(memory.notRunSince(KEY, 'a', T0 + 27_000)).toBe(T0);
		expect(memory.notRunSince(KEY, 'b', T0 + 27_000)).toBe(T0 + 27_000);
	});

	it('hold the saved lastReceivedAt back at the oldest of them until a copy runs', () => {
		const memory = new DeliveryMemory();
		const state = {};
		const failed = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, state, ['a'], T0, failed);
		memory.noteReceived(KEY, T0);
		memory.releaseClaimed(KEY, ['a'], failed);
		memory.notRunSince(KEY, 'a', T0);
		const next = memory.answerOpened(KEY, T0 + 5_000);
		const fresh = memory.claimNewIds(KEY, state, ['b'], T0 + 5_000, next);
		memory.noteReceived(KEY, T0 + 5_000);
		memory.recordStarted(KEY, state, fresh, next, T0 + 5_001);
		expect(state.lastReceivedAt).toBe(new Date(T0).toISOString());
		// The retry of a runs: the record may move on.
		const retry = memory.answerOpened(KEY, T0 + 12_000);
		const again = memory.claimNewIds(KEY, state, ['a'], T0 + 12_000, retry);
		memory.noteReceived(KEY, T0 + 12_000);
		memory.recordStarted(KEY, state, again, retry, T0 + 12_001);
		expect(state.lastReceivedAt).toBe(new Date(T0 + 12_000).toISOString());
	});

	it('are let go of after 26 hours, to the millisecond', () => {
		const memory = new DeliveryMemory();
		const state = {};
		memory.notRunSince(KEY, 'old', T0);
		memory.notRunSince(KEY, 'new', T0 + DEDUPE_MAX_AGE_MS);
		const token = memory.answerOpened(KEY, T0 + DEDUPE_MAX_AGE_MS);
		const fresh = memory.claimNewIds(KEY, state, ['c'], T0 + DEDUPE_MAX_AGE_MS, token);
		memory.noteReceived(KEY, T0 + DEDUPE_MAX_AGE_MS);
		memory.recordStarted(KEY, state, fresh, token, T0 + DEDUPE_MAX_AGE_MS);
		expect(state.lastReceivedAt).toBe(new Date(T0).toISOString());
		memory.notRunSince(KEY, 'newer', T0 + DEDUPE_MAX_AGE_MS + 1);
		const t2 = memory.answerOpened(KEY, T0 + DEDUPE_MAX_AGE_MS + 2);
		const more = memory.claimNewIds(KEY, state, ['d'], T0 + DEDUPE_MAX_AGE_MS + 2, t2);
		memory.recordStarted(KEY, state, more, t2, T0 + DEDUPE_MAX_AGE_MS + 2);
		expect(state.lastReceivedAt).toBe(new Date(T0 + DEDUPE_MAX_AGE_MS).toISOString());
	});
});
