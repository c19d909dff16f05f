/**
 * A delivery that carries several events (an Account Activity body) of which some are copies: each
 * copy is decided on its own. Found missing by mutation testing of receive.ts
 * (bench/results/mutation.md, "receive.ts").
 */
import type { IDataObject } from 'n8n-workflow';

import { COPY_WAIT_MS, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { DeliveryMemory } from '../../nodes/triggers/webhook/state';
import { answerOf, favoritesDelivery, manualClock } from './helpers';

const T = Date.parse('2026-11-22T12:10:00Z');
/** The process started long before: no restart recovery here. */
const STARTED = T - 3_600_000;

const favorites = (ids: string[], staticData: IDataObject) =>
	favoritesDelivery(ids, staticData, 'wf-batches');

const ran = (result: Awaited<ReturnType<typeof receiveDelivery>>) =>
	result.workflowData?.[0].map((i) => String(i.json.event_id)) ?? [];

describe('a delivery of several events, some of them copies', () => {
	it('waits for the one copy still being started even when another copy has run, and runs it when that first attempt fails to start', async () => {
		const memory = new DeliveryMemory();
		const clock = manualClock(T);
		const staticData: IDataObject = {};
		// Event a has run; event b's first attempt is still being started.
		const first = favorites(['a'], staticData);
		const firstResult = await receiveDelivery(first.context, new Date(T), STARTED, memory, clock);
		expect(ran(firstResult)).toEqual(['favorite:a']);
		void firstResult.webhookResponse; // n8n started its run
		const second = favorites(['b'], staticData);
		expect(ran(await receiveDelivery(second.context, new Date(T), STARTED, memory, clock))).toEqual(
			['favorite:b'],
		);
		// The service sends both again in one body.
		const batch = favorites(['a', 'b'], staticData);
		const batchResult = receiveDelivery(batch.context, new Date(T + 100), STARTED, memory, clock);
		await clock.advance(100);
		// n8n could not start b's first run: it answers 500 without reading the answer.
		second.response.emit('finish');
		const out = await batchResult;
		expect(ran(out)).toEqual(['favorite:b']);
		expect(answerOf(out, batch.captured)).toEqual({ status: 200, body: { ok: true, events: 1 } });
	});

	it('is answered 503 when a copy is still being started after COPY_WAIT_MS, and the new event beside it runs when the service sends the body again', async () => {
		const memory = new DeliveryMemory();
		const clock = manualClock(T);
		const staticData: IDataObject = {};
		// Event a's first attempt is still being started.
		const first = favorites(['a'], staticData);
		const firstResult = await receiveDelivery(first.context, new Date(T), STARTED, memory, clock);
		expect(ran(firstResult)).toEqual(['favorite:a']);
		// The service sends a again with a new event c.
		const batch = favorites(['a', 'c'], staticData);
		const batchResult = receiveDelivery(batch.context, new Date(T + 100), STARTED, memory, clock);
		await clock.advance(100); // the copy is waiting for a's outcome
		await clock.advance(COPY_WAIT_MS);
		const out = await batchResult;
		expect(ran(out)).toEqual([]);
		expect(answerOf(out, batch.captured)).toEqual({
			status: 503,
			body: { error: 'a copy of these events is still being started' },
		});
		batch.response.emit('finish');
		// a's run starts; the service sends the body again: a is a duplicate now, c runs.
		void firstResult.webhookResponse;
		first.response.emit('finish');
		const retry = favorites(['a', 'c'], staticData);
		const retried = await receiveDelivery(
			retry.context,
			new Date(T + 10_000),
			STARTED,
			memory,
			clock,
		);
		expect(ran(retried)).toEqual(['favorite:c']);
	});
});
