/**
 * What the webhook trigger logs when n8n answers a delivery without starting its run (a 500: the
 * queue or the database refused it): how many events will come again and when its own replay is
 * asked, and nothing when its events ran in another process meanwhile. Found missing by mutation
 * testing of receive.ts (bench/results/mutation.md, "receive.ts").
 */
import type { IDataObject } from 'n8n-workflow';

import { receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { DeliveryMemory } from '../../nodes/triggers/webhook/state';
import { signedDelivery } from './helpers';

const T = Date.parse('2026-11-22T12:10:00Z');
const STARTED = T - 3_600_000;

function delivery(id: string, staticData: IDataObject) {
	return signedDelivery(
		{ data: { event_uuid: id, event_type: 'post.create', payload: { id } } },
		{
			parameters: { mode: 'activity', events: ['post.create'], options: {} },
			staticData,
			workflowId: 'wf-not-started',
			typeVersion: 3,
		},
	);
}

const warnings = (logs: Array<{ level: string; message: string }>) =>
	logs.filter((l) => l.level === 'warn').map((l) => l.message);

describe('a delivery whose run n8n did not start', () => {
	it('is logged with how many events will come again and when this process asks a replay for them', async () => {
		const d = delivery('ns-1', {});
		const result = await receiveDelivery(d.context, new Date(T), STARTED, new DeliveryMemory());
		expect(result.workflowData).toBeDefined();
		d.response.emit('finish'); // n8n answered 500 without reading the answer
		expect(warnings(d.logs)).toEqual([
			'Platform Trigger: n8n answered a delivery without starting its run; its 1 event(s) will run when the service sends them again, or by a replay this process asks for in 60 s',
		]);
	});

	it('logs nothing when its event ran in another process meanwhile (the saved record holds it)', async () => {
		const here = new DeliveryMemory();
		const elsewhere = new DeliveryMemory();
		const row: IDataObject = {};
		// This process claims ns-2; n8n is still starting its run.
		const d = delivery('ns-2', {});
		expect(
			(await receiveDelivery(d.context, new Date(T), STARTED, here)).workflowData,
		).toBeDefined();
		// Another process runs a copy of ns-2 and saves the record.
		const other = delivery('ns-2', row);
		void (await receiveDelivery(other.context, new Date(T + 100), STARTED, elsewhere))
			.webhookResponse;
		expect(row.seen).toBeDefined();
		// This process reads that record with its next delivery.
		const next = delivery('ns-3', JSON.parse(JSON.stringify(row)) as IDataObject);
		void (await receiveDelivery(next.context, new Date(T + 200), STARTED, here)).webhookResponse;
		// n8n then fails to start the first run: nothing is released, nothing to announce.
		d.response.emit('finish');
		expect(warnings(d.logs)).toEqual([]);
		// And ns-2 stays a duplicate here.
		const copy = delivery('ns-2', {});
		expect(
			(await receiveDelivery(copy.context, new Date(T + 300), STARTED, here)).workflowData,
		).toBeUndefined();
	});
});
