/**
 * When the webhook trigger asks the service for a replay, and when it must not. Each replay job ends
 * with a status message that the service delivers to the webhook and the trigger runs (outputs.ts: the
 * Status output, or among the events in version 1), so a replay nothing needed is a run nobody asked
 * for. Found in real n8n (e2e/tests/30-trigger.js, 32-trigger-once.js): the restart recovery asked for
 * a replay from the process's start at the first call after any delivery of the process life was
 * saved, and every trigger test got one extra run, a `replay:<job>:complete` status.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { answerCrc, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { DeliveryMemory, ORPHANED_CLAIM_MS } from '../../nodes/triggers/webhook/state';
import { BASE } from '../helpers/context';
import { manualClock, postDelivery, recoveringDelivery, webhookContext } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

/** The process started at 12:00; the workflow was activated ten minutes later (no gap to recover). */
const STARTED = Date.parse('2026-11-22T12:00:00Z');
const ACTIVATED = STARTED + 10 * 60_000;

const post = postDelivery;
const status = (job: string) => ({
	replay_job_status: {
		webhook_id: '111',
		job_state: 'Complete',
		job_state_description: 'Job completed successfully',
		job_id: job,
	},
});

const delivery = recoveringDelivery;

const replayRequests = (requests: Array<{ url?: string }>) =>
	requests.filter((r) => String(r.url).endsWith('/2/webhooks/replay'));

describe('the restart recovery asks for a replay only for a gap before this process started', () => {
	it('a trigger activated after the process started: its second delivery (the first one saved the time of a delivery of this process life) asks for no replay', async () => {
		const memory = new DeliveryMemory();
		const staticData: IDataObject = { webhookId: '111' };
		const first = delivery(post('e2e-1'), staticData, 'wf-need-1');
		const firstResult = await receiveDelivery(
			first.context,
			new Date(ACTIVATED + 1_000),
			STARTED,
			memory,
		);
		expect(firstResult.webhookResponse).toEqual({ ok: true, events: 1 }); // n8n started the run
		first.response.emit('finish');
		expect(staticData.lastReceivedAt).toBe(new Date(ACTIVATED + 1_000).toISOString());

		const second = delivery(post('e2e-2'), staticData, 'wf-need-1');
		const secondResult = await receiveDelivery(
			second.context,
			new Date(ACTIVATED + 2_000),
			STARTED,
			memory,
		);
		expect(secondResult.workflowData?.[0]).toHaveLength(1);
		await sleep(0);
		expect(replayRequests(second.requests)).toEqual([]);
		expect(second.logs.filter((l) => l.level === 'error')).toEqual([]);
	});

	it('a CRC check after a delivery of this process life asks for no replay', async () => {
		const memory = new DeliveryMemory();
		const staticData: IDataObject = { webhookId: '111' };
		const first = delivery(post('e2e-3'), staticData, 'wf-need-2');
		void (await receiveDelivery(first.context, new Date(ACTIVATED + 1_000), STARTED, memory))
			.webhookResponse;
		first.response.emit('finish');
		const crc = webhookContext({
			query: { crc_token: 'token-after-delivery' },
			staticData,
			workflowId: 'wf-need-2',
		});
		await answerCrc(crc.context, new Date(ACTIVATED + 5_000), STARTED, memory);
		expect(crc.captured.status).toBe(200);
		expect(replayRequests(crc.requests)).toEqual([]);
	});

	it('the saved delivery older than the process start: the gap is replayed from it (the check above can fail)', async () => {
		const memory = new DeliveryMemory();
		let asked: IDataObject | undefined;
		nock(BASE)
			.post('/2/webhooks/replay', (b) => ((asked = b as IDataObject), true))
			.reply(200, { data: { job_id: 'j-need' } });
		const staticData: IDataObject = { webhookId: '111', lastReceivedAt: '2026-11-22T11:50:00Z' };
		const crc = webhookContext({
			query: { crc_token: 'token-after-restart' },
			staticData,
			workflowId: 'wf-need-3',
		});
		await answerCrc(crc.context, new Date(ACTIVATED), STARTED, memory);
		expect(asked).toMatchObject({ webhook_id: '111', from_date: '202611221150' });
	});

	it('a saved delivery at the very millisecond the process started is not older than the process: no replay', async () => {
		const memory = new DeliveryMemory();
		const staticData: IDataObject = {
			webhookId: '111',
			lastReceivedAt: new Date(STARTED).toISOString(),
		};
		const crc = webhookContext({
			query: { crc_token: 'token-at-the-start' },
			staticData,
			workflowId: 'wf-need-6',
		});
		await answerCrc(crc.context, new Date(ACTIVATED), STARTED, memory);
		await sleep(0);
		expect(crc.captured.status).toBe(200);
		expect(replayRequests(crc.requests)).toEqual([]);
	});
});

describe('the trigger’s own replay for a run n8n did not start', () => {
	async function notStarted(body: IDataObject, workflowId: string) {
		const memory = new DeliveryMemory();
		const clock = manualClock(ACTIVATED);
		const staticData: IDataObject = {
			webhookId: '111',
			lastReceivedAt: new Date(ACTIVATED).toISOString(),
		};
		const d = delivery(body, staticData, workflowId);
		const result = await receiveDelivery(d.context, new Date(ACTIVATED), STARTED, memory, clock);
		expect(result.workflowData).toBeDefined();
		// n8n could not start the run: it answers 500 itself without reading the trigger's answer.
		d.response.emit('finish');
		await clock.advance(ORPHANED_CLAIM_MS + 1_000);
		return d;
	}

	it('is not asked for a replay job’s status message: no replay sends a status again, a new job only brings its own status to run', async () => {
		const d = await notStarted(status('job-7'), 'wf-need-4');
		expect(replayRequests(d.requests)).toEqual([]);
	});

	it('is asked for an event (the check above can fail)', async () => {
		nock(BASE)
			.post('/2/webhooks/replay')
			.reply(200, { data: { job_id: 'j-own' } });
		const d = await notStarted(post('e2e-own'), 'wf-need-5');
		expect(replayRequests(d.requests)).toHaveLength(1);
	});
});
