/**
 * A delivery whose run n8n could not start (the database or the queue refused it: n8n answers 500
 * without reading the trigger's answer) must not leave its events claimed: the service sends them
 * again, the proxy routes that retry to the same process, and it must run. Copies that arrive while
 * the first delivery is still being started stay duplicates.
 */
import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import {
	DEDUPE_MAX_AGE_MS,
	processMemory,
	SWEEP_EVERY_MS,
} from '../../nodes/triggers/webhook/state';
import { signedDelivery } from './helpers';

const at = new Date('2026-03-01T10:00:00Z');
const body = (id: string) => ({
	data: { event_uuid: id, event_type: 'post.create', payload: { id, text: 'hello' } },
});
const ran = (result: Awaited<ReturnType<typeof receiveDelivery>>) =>
	result.workflowData?.[0].map((i) => i.json.event_id) ?? [];

function delivery(id: string, workflowId: string) {
	return signedDelivery(body(id), {
		parameters: { mode: 'activity', events: ['post.create'], options: {} },
		workflowId,
		typeVersion: 3,
		staticData: {},
	});
}

describe('a delivery whose run n8n did not start', () => {
	it('is run by the service’s retry to the same process', async () => {
		const first = delivery('evt-failed-1', 'wf-failed-start');
		const result = await receiveDelivery(first.context, at);
		expect(ran(result)).toEqual(['evt-failed-1']);
		// n8n could not start the run: it answers 500 itself and never reads webhookResponse.
		first.response.emit('finish');
		expect(
			first.logs.some((l) => l.level === 'warn' && l.message.includes('without starting its run')),
		).toBe(true);
		const retry = delivery('evt-failed-1', 'wf-failed-start');
		expect(ran(await receiveDelivery(retry.context, new Date(at.getTime() + 5_000)))).toEqual([
			'evt-failed-1',
		]);
	});

	it('a copy arriving while the first attempt is being started waits for it: it runs when that run fails to start, and is a duplicate when it starts', async () => {
		const first = delivery('evt-failed-2', 'wf-failed-copy');
		expect(ran(await receiveDelivery(first.context, at))).toEqual(['evt-failed-2']);
		const copy = delivery('evt-failed-2', 'wf-failed-copy');
		const copyResult = receiveDelivery(copy.context, at);
		first.response.emit('finish'); // n8n answered 500 without starting the first run
		expect(ran(await copyResult)).toEqual(['evt-failed-2']);
		void (await copyResult).webhookResponse; // the copy's run starts
		const late = delivery('evt-failed-2', 'wf-failed-copy');
		const lateResult = await receiveDelivery(late.context, at);
		expect(ran(lateResult)).toEqual([]);
		expect(lateResult.webhookResponse).toEqual({ ok: true, events: 0 });
	});

	it('a delivery whose run started keeps its claim when its answer is sent', async () => {
		const first = delivery('evt-started-1', 'wf-started');
		const result = await receiveDelivery(first.context, at);
		expect(result.webhookResponse).toEqual({ ok: true, events: 1 });
		first.response.emit('finish');
		const retry = delivery('evt-started-1', 'wf-started');
		expect(ran(await receiveDelivery(retry.context, new Date(at.getTime() + 5_000)))).toEqual([]);
	});

	it('an event that started in another delivery stays claimed when this one fails to start', async () => {
		const a = delivery('evt-shared', 'wf-shared');
		const resultA = await receiveDelivery(a.context, at);
		expect(ran(resultA)).toEqual(['evt-shared']);
		// n8n reads A's answer: A's run started. A second delivery of other events fails to start.
		expect(resultA.webhookResponse).toBeDefined();
		const b = delivery('evt-other', 'wf-shared');
		expect(ran(await receiveDelivery(b.context, at))).toEqual(['evt-other']);
		b.response.emit('finish');
		expect(ran(await receiveDelivery(delivery('evt-shared', 'wf-shared').context, at))).toEqual([]);
		expect(ran(await receiveDelivery(delivery('evt-other', 'wf-shared').context, at))).toEqual([
			'evt-other',
		]);
	});
});

describe('what a webhook process keeps of triggers that no longer receive anything', () => {
	it('forgets a trigger whose every id has expired (webhook processes never hear of deactivation)', async () => {
		const base = at.getTime() + 10 * DEDUPE_MAX_AGE_MS;
		for (let i = 0; i < 5; i++) {
			const d = delivery(`evt-old-${i}`, `wf-gone-${i}`);
			expect(ran(await receiveDelivery(d.context, new Date(base)))).toHaveLength(1);
		}
		const held = processMemory.triggersInMemory();
		expect(held).toBeGreaterThanOrEqual(5);
		// Within the 26 hours an id counts, nothing is forgotten.
		processMemory.forgetExpiredTriggers(base + DEDUPE_MAX_AGE_MS - SWEEP_EVERY_MS);
		expect(processMemory.triggersInMemory()).toBe(held);
		// One trigger still receives; the others are gone after their ids expired.
		const later = base + DEDUPE_MAX_AGE_MS + 2 * SWEEP_EVERY_MS;
		const alive = delivery('evt-new', 'wf-alive');
		expect(ran(await receiveDelivery(alive.context, new Date(later)))).toEqual(['evt-new']);
		expect(processMemory.triggersInMemory()).toBe(1);
	});
});
