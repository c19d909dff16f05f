/**
 * The webhook trigger's delivery memory (DeliveryMemory in nodes/triggers/webhook/state.ts) outside
 * the duplicate check itself: what a copy waiting on a claim learns of it (outcomeOf), which
 * delivery's hang-up orphans which claims, the group commit's time rule, and the record a restart
 * reads. Each test was written for a mutant that `npm run test:mutation` left alive
 * (bench/results/mutation.md, "state.ts (outside `claimNewIds`)").
 */

import type { IDataObject } from 'n8n-workflow';

import { COPY_WAIT_MS, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import {
	DEDUPE_MAX_AGE_MS,
	DeliveryMemory,
	ORPHANED_CLAIM_MS,
	WRITE_AT_LEAST_EVERY_MS,
	persistedIds,
	type TriggerState,
} from '../../nodes/triggers/webhook/state';

import { answerOf, manualClock, postDelivery, signedDelivery } from './helpers';

const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const KEY = 'workflow-1:node-1';

/** A post.create delivery of `id` to one trigger (no webhook id saved: no own replay is asked). */
const delivery = (id: string, staticData: IDataObject) =>
	signedDelivery(postDelivery(id), {
		parameters: { mode: 'activity', events: ['post.create'], options: {} },
		staticData,
		workflowId: 'wf-memory',
		typeVersion: 3,
	});

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

describe('a copy that comes just before a claim is orphaned', () => {
	it(`waits, then takes the claim over and runs when the claim turns orphaned (${ORPHANED_CLAIM_MS} ms) at the end of its wait, rather than being answered 503`, async () => {
		const memory = new DeliveryMemory();
		const clock = manualClock(T0);
		const staticData: IDataObject = {};
		const first = delivery('late', staticData);
		const started = await receiveDelivery(
			first.context,
			new Date(T0),
			T0 - 3_600_000,
			memory,
			clock,
		);
		expect(started.workflowData?.[0]).toHaveLength(1);
		// The caller hangs up at 10 s; n8n never starts the run.
		await clock.advance(10_000);
		first.response.emit('close');
		const at = T0 + ORPHANED_CLAIM_MS - COPY_WAIT_MS; // its wait ends as the claim turns orphaned
		await clock.advance(at - clock.now());
		const copy = delivery('late', staticData);
		const pending = receiveDelivery(copy.context, new Date(at), T0 - 3_600_000, memory, clock);
		await clock.advance(0); // the copy is waiting for the claim's outcome
		expect(copy.captured.status).toBeUndefined();
		await clock.advance(COPY_WAIT_MS);
		const result = await pending;
		expect(result.workflowData?.[0].map((i) => i.json.event_id)).toEqual(['late']);
		expect(answerOf(result, copy.captured).status).toBe(200);
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

describe('a caller that hangs up after its trigger was forgotten (deactivated meanwhile)', () => {
	it('changes nothing and does not throw (n8n calls this from the response’s close event)', () => {
		const memory = new DeliveryMemory();
		const token = memory.answerOpened(KEY, T0);
		memory.claimNewIds(KEY, {}, ['a'], T0, token);
		memory.forgetTrigger(KEY);
		expect(() => memory.callerHungUp(KEY, token, T0 + 1_000)).not.toThrow();
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + 2_000)).toEqual(new Set(['a']));
	});
});

describe('a trigger deactivated while a delivery was being answered', () => {
	it('is forgotten: its ids are new again and this process holds no record of it', () => {
		const memory = new DeliveryMemory();
		memory.claimNewIds(KEY, {}, ['a'], T0);
		expect(memory.triggersInMemory()).toBe(1);
		memory.forgetTrigger(KEY);
		expect(memory.triggersInMemory()).toBe(0);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + 1)).toEqual(new Set(['a']));
	});

	it('the run that n8n starts after that does not throw (n8n reads the answer in its webhook call)', () => {
		const memory = new DeliveryMemory();
		const token = memory.answerOpened(KEY, T0);
		const fresh = memory.claimNewIds(KEY, {}, ['a'], T0, token);
		memory.forgetTrigger(KEY);
		expect(() => memory.recordStarted(KEY, {}, fresh, token, T0 + 5)).not.toThrow();
	});
});

describe('the group commit’s time rule', () => {
	it('a copy whose process has written everything it holds leaves its static data unchanged (n8n saves nothing)', () => {
		const memory = new DeliveryMemory();
		const row: TriggerState = {};
		const first = memory.answerOpened(KEY, T0);
		memory.recordStarted(KEY, row, memory.claimNewIds(KEY, row, ['x'], T0, first), first, T0);
		const saved = JSON.stringify(row);
		// Two copies of x, answered at once, each with nothing new; the first to start writes the
		// delivery time both noted, the second finds nothing unwritten.
		const copyA = JSON.parse(saved);
		const copyB = JSON.parse(saved);
		const a = memory.answerOpened(KEY, T0 + 2_000);
		memory.claimNewIds(KEY, copyA, ['x'], T0 + 2_000, a);
		memory.noteReceived(KEY, T0 + 2_000);
		const b = memory.answerOpened(KEY, T0 + 2_000);
		memory.claimNewIds(KEY, copyB, ['x'], T0 + 2_000, b);
		memory.noteReceived(KEY, T0 + 2_000);
		expect(memory.recordStarted(KEY, copyA, [], a, T0 + 2_001)).toBe(true);
		expect(memory.recordStarted(KEY, copyB, [], b, T0 + 2_002)).toBe(false);
		expect(JSON.stringify(copyB)).toBe(saved);
	});

	it(`a delivery with nothing new writes once the last write is ${WRITE_AT_LEAST_EVERY_MS} ms old, even with another delivery in flight`, () => {
		const memory = new DeliveryMemory();
		const state: TriggerState = {};
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
		const row: TriggerState = {};
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

describe('the record’s age limit', () => {
	it('an id seen exactly 26 hours before a later claim is kept by it: its copy then is still a duplicate', () => {
		const memory = new DeliveryMemory();
		memory.claimNewIds(KEY, {}, ['a'], T0);
		memory.claimNewIds(KEY, {}, ['b'], T0 + DEDUPE_MAX_AGE_MS);
		expect(memory.claimNewIds(KEY, {}, ['a'], T0 + DEDUPE_MAX_AGE_MS).size).toBe(0);
	});
});

describe('the saved record', () => {
	it('holds no id older than 26 hours: the next write after that leaves it out', () => {
		const memory = new DeliveryMemory();
		const state: TriggerState = {};
		const run = (id: string, at: number) => {
			const token = memory.answerOpened(KEY, at);
			memory.recordStarted(KEY, state, memory.claimNewIds(KEY, state, [id], at, token), token, at);
		};
		run('old', T0);
		run('younger', T0 + 3_600_000);
		expect(persistedIds(state)).toHaveLength(2);
		run('new', T0 + DEDUPE_MAX_AGE_MS + 1);
		expect(persistedIds(state).map(([, at]) => at > T0 + 60_000)).toEqual([true, true]);
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
		const state: TriggerState = {};
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
		const state: TriggerState = {};
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

	it('are kept up to 2,000: the 2,001st lets the oldest go', () => {
		const memory = new DeliveryMemory();
		const state: TriggerState = {};
		const write = (at: number) => {
			const token = memory.answerOpened(KEY, at);
			const fresh = memory.claimNewIds(KEY, state, [`run-${at}`], at, token);
			memory.noteReceived(KEY, at);
			memory.recordStarted(KEY, state, fresh, token, at);
			return state.lastReceivedAt;
		};
		for (let i = 0; i < 2000; i++) memory.notRunSince(KEY, `lost-${i}`, T0 + i);
		expect(write(T0 + 3_000)).toBe(new Date(T0).toISOString());
		memory.notRunSince(KEY, 'lost-2000', T0 + 2_000);
		expect(write(T0 + 3_001)).toBe(new Date(T0 + 1).toISOString());
	});
});

describe('events that ran in another process', () => {
	/** One delivery of `ids` in `memory`, its runs started, its record written into `state`. */
	const runIn = (memory: DeliveryMemory, state: TriggerState, ids: string[], at: number) => {
		const token = memory.answerOpened(KEY, at);
		const fresh = memory.claimNewIds(KEY, state, ids, at, token);
		memory.noteReceived(KEY, at);
		memory.recordStarted(KEY, state, fresh, token, at);
	};

	it('an event n8n did not start here but another process ran no longer holds the saved time back', () => {
		const here = new DeliveryMemory();
		const state: TriggerState = {};
		here.notRunSince(KEY, 'a', T0);
		runIn(new DeliveryMemory(), state, ['a'], T0 + 1_000);
		runIn(here, state, ['b'], T0 + 5_000);
		expect(state.lastReceivedAt).toBe(new Date(T0 + 5_000).toISOString());
	});

	it('an orphaned claim on an event another process ran is not taken over, even once that record is this process’s again', () => {
		const here = new DeliveryMemory();
		const state: TriggerState = {};
		const token = here.answerOpened(KEY, T0);
		here.claimNewIds(KEY, state, ['a'], T0, token);
		here.callerHungUp(KEY, token, T0 + 10_000);
		// Another process runs a copy of a, and this process reads its record with its next delivery,
		// then writes the record itself.
		runIn(new DeliveryMemory(), state, ['a'], T0 + 20_000);
		runIn(here, state, ['x'], T0 + 30_000);
		// A copy of a once the claim is old enough to be taken over: it ran elsewhere, so it is a copy.
		expect(here.claimNewIds(KEY, state, ['a'], T0 + ORPHANED_CLAIM_MS).size).toBe(0);
	});
});

describe('the saved lastReceivedAt (where a restart’s recovery starts)', () => {
	const iso = (ms: number) => new Date(ms).toISOString();

	it('an event this process did not run moves a later saved time back to its own arrival', () => {
		const memory = new DeliveryMemory();
		const state: TriggerState = { lastReceivedAt: iso(T0 + 60_000) };
		memory.notRunSince(KEY, 'a', T0);
		const token = memory.answerOpened(KEY, T0 + 5_000);
		const fresh = memory.claimNewIds(KEY, state, ['b'], T0 + 5_000, token);
		memory.noteReceived(KEY, T0 + 5_000);
		expect(memory.recordStarted(KEY, state, fresh, token, T0 + 5_001)).toBe(true);
		expect(state.lastReceivedAt).toBe(iso(T0));
	});
});

describe('a delivery that never got its answer', () => {
	it('holds back the group commit for 60 s to the millisecond, then no longer', () => {
		const memory = new DeliveryMemory();
		const state: TriggerState = {};
		memory.answerOpened(KEY, T0); // its caller and n8n never finish
		const w = memory.answerOpened(KEY, T0 + 59_500);
		const fresh = memory.claimNewIds(KEY, state, ['a'], T0 + 59_500, w);
		memory.noteReceived(KEY, T0 + 59_500);
		expect(memory.recordStarted(KEY, state, fresh, w, T0 + 59_500)).toBe(true);
		// Copies with nothing new, within a second of that write: left to the delivery in flight while it
		// is 60 s old, written once it is older.
		const atBound = memory.answerOpened(KEY, T0 + 60_000);
		memory.claimNewIds(KEY, state, ['a'], T0 + 60_000, atBound);
		memory.noteReceived(KEY, T0 + 60_000);
		expect(memory.recordStarted(KEY, state, [], atBound, T0 + 60_000)).toBe(false);
		const past = memory.answerOpened(KEY, T0 + 60_001);
		memory.claimNewIds(KEY, state, ['a'], T0 + 60_001, past);
		memory.noteReceived(KEY, T0 + 60_001);
		expect(memory.recordStarted(KEY, state, [], past, T0 + 60_001)).toBe(true);
	});
});
