/**
 * Group commit of the trigger's record: n8n rewrites the whole static data column whenever a delivery
 * marks it changed. A delivery that started runs of new events writes before its answer, always (the
 * service never sends them again once answered; leaving the write to another delivery in flight lost
 * it when that one's run failed to start). A delivery with nothing new of its own writes what the
 * process has unwritten only when no other delivery of the trigger is still being answered by this
 * process, or when this process last wrote it WRITE_AT_LEAST_EVERY_MS ago. What each delivery's copy
 * holds decides what n8n saves: an unchanged copy is not saved at all.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerState } from '../../nodes/triggers/webhook/state';
import { WRITE_AT_LEAST_EVERY_MS } from '../../nodes/triggers/webhook/state';
import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { newProcess, recordedIds, sign, webhookContext, type StateModule } from './helpers';

const KEY = 'wf:node';
const t0 = Date.parse('2026-01-01T00:00:00Z');

/** The database row: what each request reads, and what n8n saves (only a copy marked changed). */
function database() {
	let row: TriggerState = {};
	let saves = 0;
	return {
		read: (): TriggerState => JSON.parse(JSON.stringify(row)) as TriggerState,
		/** n8n's save after the answer: only when the delivery wrote into its copy. */
		save: (copy: TriggerState, wrote: boolean) => {
			if (!wrote) return;
			saves++;
			row = JSON.parse(JSON.stringify(copy)) as TriggerState;
		},
		row: () => row,
		saves: () => saves,
	};
}

/** A delivery in process `p`: read its copy, claim its ids, open its answer. */
function arrive(p: StateModule, db: ReturnType<typeof database>, ids: string[], at: number) {
	const copy = db.read();
	const fresh = p.claimNewIds(KEY, copy, ids, at);
	p.noteReceived(KEY, at);
	const token = p.answerOpened(KEY, at);
	/** Its run starts: n8n reads the answer, then saves the copy if it was written. */
	const start = (when: number) => db.save(copy, p.recordStarted(KEY, copy, fresh, token, when));
	return { fresh, start, token };
}

describe('group commit of the record', () => {
	it('of deliveries answered at once, each that started new events writes them before its answer; copies with nothing new do not', () => {
		const db = database();
		const p = newProcess();
		const a = arrive(p, db, ['a'], t0);
		const b = arrive(p, db, ['b'], t0 + 1);
		const c = arrive(p, db, ['c'], t0 + 2);
		a.start(t0 + 10);
		b.start(t0 + 11); // c is still being answered, but c's run may never start: b writes
		expect(db.saves()).toBe(2);
		expect(recordedIds(db.row() as IDataObject, ['a', 'b']).sort()).toEqual(['a', 'b']);
		const copy = arrive(p, db, ['a'], t0 + 12); // a copy of a: nothing new of its own
		expect(copy.fresh.size).toBe(0);
		copy.start(t0 + 13); // c is still in flight and the last write is under a second old
		expect(db.saves()).toBe(2);
		c.start(t0 + 14);
		expect(db.saves()).toBe(3);
		expect(recordedIds(db.row() as IDataObject, ['a', 'b', 'c']).sort()).toEqual(['a', 'b', 'c']);
		// A restarted process knows all three.
		expect(newProcess().claimNewIds(KEY, db.read(), ['a', 'b', 'c', 'd'], t0 + 20)).toEqual(
			new Set(['d']),
		);
	});

	it('a lone delivery writes before its answer, every time', () => {
		const db = database();
		const p = newProcess();
		for (let i = 0; i < 5; i++) arrive(p, db, [`lone${i}`], t0 + i * 10).start(t0 + i * 10 + 5);
		expect(db.saves()).toBe(5);
		expect(recordedIds(db.row() as IDataObject, ['lone4'])).toContain('lone4');
	});

	it('under a steady load of copies (always another delivery in flight) it writes about once per WRITE_AT_LEAST_EVERY_MS', () => {
		const db = database();
		const p = newProcess();
		arrive(p, db, ['s0'], t0).start(t0 + 1);
		expect(db.saves()).toBe(1);
		let previous = arrive(p, db, ['s0'], t0 + 2);
		const step = 50;
		const total = 100;
		for (let i = 1; i <= total; i++) {
			const next = arrive(p, db, ['s0'], t0 + i * step);
			previous.start(t0 + i * step + 1);
			previous = next;
		}
		const span = total * step;
		// About one write per interval (each carries lastReceivedAt), far fewer than deliveries.
		expect(db.saves() - 1).toBeGreaterThanOrEqual(Math.floor(span / WRITE_AT_LEAST_EVERY_MS) - 1);
		expect(db.saves() - 1).toBeLessThanOrEqual(Math.ceil(span / WRITE_AT_LEAST_EVERY_MS) + 1);
		expect(Date.parse(String(db.row().lastReceivedAt))).toBeGreaterThan(
			t0 + span - WRITE_AT_LEAST_EVERY_MS - step,
		);
	});

	it('a delivery whose answer went out without its run (500) or whose caller hung up no longer holds back the write', () => {
		const db = database();
		const p = newProcess();
		arrive(p, db, ['first'], t0).start(t0 + 1);
		const failed = arrive(p, db, ['failed'], t0 + 2);
		const ok = arrive(p, db, ['ok'], t0 + 3);
		p.answerClosed(KEY, failed.token); // n8n answered 500: its getter was never read
		ok.start(t0 + 4);
		expect(db.saves()).toBe(2);
		expect(recordedIds(db.row() as IDataObject, ['first', 'ok', 'failed']).sort()).toEqual([
			'first',
			'ok',
		]);
	});

	it('saves lastReceivedAt as the latest delivery this process received, never an older one', () => {
		const db = database();
		const p = newProcess();
		const late = arrive(p, db, ['late'], t0 + 5000);
		const early = arrive(p, db, ['early'], t0 + 1000);
		early.start(t0 + 5001); // first write
		late.start(t0 + 5002);
		expect(db.row().lastReceivedAt).toBe(new Date(t0 + 5000).toISOString());
	});

	it('a copy another process wrote is merged and this process re-asserts its own ids at its next write', () => {
		const db = database();
		const a = newProcess();
		const b = newProcess();
		arrive(a, db, ['mine'], t0).start(t0 + 1);
		// B read the row before A's save and saves after it: the last writer wins, 'mine' is gone.
		const readByB = {} as TriggerState;
		const fresh = b.claimNewIds(KEY, readByB, ['theirs'], t0 + 2);
		b.noteReceived(KEY, t0 + 2);
		db.save(readByB, b.recordStarted(KEY, readByB, fresh, b.answerOpened(KEY, t0 + 2), t0 + 3));
		expect(recordedIds(db.row() as IDataObject, ['mine', 'theirs'])).toEqual(['theirs']);
		// A duplicate at A (nothing new) still writes: the copy it read was B's.
		const dup = arrive(a, db, ['mine'], t0 + 4);
		expect(dup.fresh.size).toBe(0);
		dup.start(t0 + 5);
		expect(recordedIds(db.row() as IDataObject, ['mine', 'theirs']).sort()).toEqual([
			'mine',
			'theirs',
		]);
	});

	it('a request that read an older copy this process wrote still finds every id it handled since (they are in its memory, the copy is not merged)', () => {
		const db = database();
		const p = newProcess();
		arrive(p, db, ['x'], t0).start(t0 + 1);
		const stale = db.read();
		arrive(p, db, ['y'], t0 + 2).start(t0 + 3);
		// A request that read the older copy (written by this process) before the latest save.
		expect(p.claimNewIds(KEY, stale, ['x', 'y', 'z'], t0 + 4)).toEqual(new Set(['z']));
	});
});

describe('group commit through the webhook', () => {
	const body = (id: string) =>
		Buffer.from(
			JSON.stringify({ data: { event_uuid: id, event_type: 'post.create', payload: { id: '9' } } }),
		);
	const deliver = async (id: string, staticData: IDataObject) => {
		const raw = body(id);
		const built = webhookContext({
			raw,
			headers: { 'x-platform-webhooks-signature': sign(raw) },
			staticData,
			workflowId: 'wf-group',
		});
		return { result: await receiveDelivery(built.context), response: built.response };
	};

	afterEach(() => jest.restoreAllMocks());

	it('a delivery answered while another is in flight still writes its own new event; so does the other', async () => {
		// One instant for the whole test: a slow machine must not make the first write a second old.
		jest.spyOn(Date, 'now').mockReturnValue(t0);
		const lone: IDataObject = {};
		const first = await deliver('g0', lone);
		void first.result.webhookResponse; // the first write of this process
		first.response.emit('finish');
		expect(recordedIds(lone, ['g0'])).toEqual(['g0']);
		const copyA: IDataObject = {};
		const copyB: IDataObject = {};
		const a = await deliver('g1', copyA);
		const b = await deliver('g2', copyB);
		void a.result.webhookResponse;
		a.response.emit('finish');
		// b is in flight, but b's run may never start: a writes its own event before its answer.
		expect(recordedIds(copyA, ['g0', 'g1', 'g2']).sort()).toEqual(['g0', 'g1']);
		void b.result.webhookResponse;
		b.response.emit('finish');
		expect(recordedIds(copyB, ['g0', 'g1', 'g2']).sort()).toEqual(['g0', 'g1', 'g2']);
	});
});
