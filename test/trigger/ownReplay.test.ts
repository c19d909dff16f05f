/**
 * The webhook trigger's own replay (receive.ts, askReplayUnlessRun): when n8n does not start a
 * delivery's run, the process asks the service to replay it once ORPHANED_CLAIM_MS has passed since
 * it arrived, unless a copy ran meanwhile; a refusal (a job running, a rate limit) is asked again a
 * minute later, up to five times, then logged with what to do. Found untested by mutation testing of
 * receive.ts (bench/results/mutation.md, "receive.ts").
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ownReplaysWaiting, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { forgetConsumerSecret } from '../../nodes/triggers/webhook/secretCache';
import { DeliveryMemory, ORPHANED_CLAIM_MS } from '../../nodes/triggers/webhook/state';
import { BASE } from '../helpers/context';
import { favoritesDelivery, manualClock, postDelivery, recoveringDelivery } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const STARTED = Date.parse('2026-11-22T12:00:00Z');
const T = Date.parse('2026-11-22T12:10:20Z');

const delivery = (id: string, staticData: IDataObject, workflowId: string) =>
	recoveringDelivery(postDelivery(id), staticData, workflowId);

/** Every replay request the service receives, its body in order. */
function serveReplays(answer: () => [number, IDataObject, IDataObject?]): IDataObject[] {
	const asked: IDataObject[] = [];
	nock(BASE)
		.persist()
		.post('/2/webhooks/replay', (b) => (asked.push(b as IDataObject), true))
		.reply(() => answer());
	return asked;
}

/** A delivery of `id` arriving at `at` whose run n8n does not start (it answers 500 itself). */
async function notStarted(
	id: string,
	at: number,
	memory: DeliveryMemory,
	clock: ReturnType<typeof manualClock>,
	workflowId: string,
) {
	const d = delivery(
		id,
		{ webhookId: '111', lastReceivedAt: new Date(at).toISOString() },
		workflowId,
	);
	const result = await receiveDelivery(d.context, new Date(at), STARTED, memory, clock);
	expect(result.workflowData).toBeDefined();
	d.response.emit('finish');
	return d;
}

const CONFLICT: [number, IDataObject] = [
	409,
	{ type: 'https://api.x.com/2/problems/conflict', title: 'Conflict' },
];
const JOB: [number, IDataObject] = [200, { data: { job_id: 'j-own' } }];

describe('the trigger’s own replay of a delivery n8n did not start', () => {
	it('is asked once ORPHANED_CLAIM_MS has passed since the delivery arrived, not before, from its minute to now', async () => {
		const asked = serveReplays(() => JOB);
		const clock = manualClock(T);
		await notStarted('own-1', T, new DeliveryMemory(), clock, 'wf-own-1');
		await clock.advance(ORPHANED_CLAIM_MS - 1_000);
		expect(asked).toEqual([]);
		await clock.advance(1_000);
		expect(asked).toEqual([
			{ webhook_id: '111', from_date: '202611221210', to_date: '202611221211' },
		]);
		await clock.advance(10 * ORPHANED_CLAIM_MS);
		expect(asked).toHaveLength(1);
	});

	it('keeps nothing waiting in memory once the replays are asked: each delivery leaves when asked, the trigger when none is left', async () => {
		serveReplays(() => JOB);
		const clock = manualClock(T);
		const memory = new DeliveryMemory();
		await notStarted('own-w1', T, memory, clock, 'wf-own-w');
		await clock.advance(30_000);
		await notStarted('own-w2', T + 30_000, memory, clock, 'wf-own-w');
		expect(ownReplaysWaiting(memory)).toEqual({ triggers: 1, deliveries: 2 });
		await clock.advance(ORPHANED_CLAIM_MS - 30_000);
		expect(ownReplaysWaiting(memory)).toEqual({ triggers: 1, deliveries: 1 });
		await clock.advance(30_000);
		expect(ownReplaysWaiting(memory)).toEqual({ triggers: 0, deliveries: 0 });
	});

	it('is not asked when a copy of its event ran meanwhile (the service’s retry)', async () => {
		const asked = serveReplays(() => JOB);
		const clock = manualClock(T);
		const memory = new DeliveryMemory();
		await notStarted('own-2', T, memory, clock, 'wf-own-2');
		await clock.advance(12_000);
		const retry = delivery('own-2', { webhookId: '111' }, 'wf-own-2');
		const result = await receiveDelivery(
			retry.context,
			new Date(T + 12_000),
			STARTED,
			memory,
			clock,
		);
		expect(result.workflowData?.[0]).toHaveLength(1);
		void result.webhookResponse; // n8n started the retry's run
		await clock.advance(2 * ORPHANED_CLAIM_MS);
		expect(asked).toEqual([]);
	});

	it('refused because a replay job is running (the service’s conflict): asked again a minute later, from the same start', async () => {
		let answers = 0;
		const asked = serveReplays(() => (answers++ === 0 ? CONFLICT : JOB));
		const clock = manualClock(T);
		const d = await notStarted('own-3', T, new DeliveryMemory(), clock, 'wf-own-3');
		await clock.advance(ORPHANED_CLAIM_MS);
		expect(asked).toHaveLength(1);
		await clock.advance(59_000);
		expect(asked).toHaveLength(1);
		await clock.advance(1_000);
		expect(asked).toHaveLength(2);
		expect(asked[1]).toMatchObject({ webhook_id: '111', from_date: '202611221210' });
		await clock.advance(10 * 60_000);
		expect(asked).toHaveLength(2);
		expect(d.logs.filter((l) => l.level === 'error')).toEqual([]);
	});

	it('rate-limited: not waited for, asked again a minute later', async () => {
		let answers = 0;
		const reset = String(Math.floor(Date.now() / 1000) + 20);
		const asked = serveReplays(() =>
			answers++ === 0
				? [
						429,
						{ title: 'Too Many Requests', type: 'about:blank' },
						{ 'x-rate-limit-reset': reset },
					]
				: JOB,
		);
		const clock = manualClock(T);
		await notStarted('own-4', T, new DeliveryMemory(), clock, 'wf-own-4');
		await clock.advance(ORPHANED_CLAIM_MS);
		expect(asked).toHaveLength(1);
		await clock.advance(60_000);
		expect(asked).toHaveLength(2);
	}, 5_000);

	it('refused five times: logged with what to do, and not asked again', async () => {
		const asked = serveReplays(() => CONFLICT);
		const clock = manualClock(T);
		const d = await notStarted('own-5', T, new DeliveryMemory(), clock, 'wf-own-5');
		await clock.advance(ORPHANED_CLAIM_MS);
		for (let i = 0; i < 4; i++) {
			expect(d.logs.filter((l) => l.level === 'error')).toEqual([]);
			await clock.advance(60_000);
		}
		expect(asked).toHaveLength(5);
		expect(d.logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
			expect.stringContaining(
				'n8n did not start the run of a delivery, and asking the service to replay it failed',
			),
		]);
		expect(d.logs.find((l) => l.level === 'error')?.message).toContain(
			'Replay Webhook Events for webhook 111 from 2026-11-22T12:10:20.000Z to 2026-11-22T12:15:20.000Z',
		);
		await clock.advance(10 * 60_000);
		expect(asked).toHaveLength(5);
	});

	it('deliveries of one trigger due at the same moment share one request, from the oldest', async () => {
		const asked = serveReplays(() => JOB);
		const clock = manualClock(T);
		const memory = new DeliveryMemory();
		await notStarted('own-6', T, memory, clock, 'wf-own-6');
		await notStarted('own-7', T, memory, clock, 'wf-own-6');
		await clock.advance(ORPHANED_CLAIM_MS);
		expect(asked).toEqual([
			{ webhook_id: '111', from_date: '202611221210', to_date: '202611221211' },
		]);
	});
});

describe('the own replay of a copy that may come from a replay this process asked', () => {
	/**
	 * The restart recovery (the first delivery after the start) asks for the gap from the saved last
	 * delivery, 11:40; the replay's copies are as old as that. A copy of an event from that gap whose
	 * run n8n does not start is asked again from the recovery's start, not from when the copy came.
	 */
	async function afterRecovery(copyAt: number, workflowId: string) {
		const asked = serveReplays(() => JOB);
		const clock = manualClock(T);
		const memory = new DeliveryMemory();
		const staticData: IDataObject = { webhookId: '111', lastReceivedAt: '2026-11-22T11:40:10Z' };
		const first = delivery('rec-1', staticData, workflowId);
		void (await receiveDelivery(first.context, new Date(T), STARTED, memory, clock))
			.webhookResponse;
		await clock.advance(0);
		expect(asked).toEqual([
			{ webhook_id: '111', from_date: '202611221140', to_date: '202611221210' },
		]);
		await clock.advance(copyAt - T);
		await notStarted('rec-old', copyAt, memory, clock, workflowId);
		await clock.advance(ORPHANED_CLAIM_MS);
		return asked;
	}

	it('within 10 minutes of that request: from the recovery’s start', async () => {
		const asked = await afterRecovery(T + 10 * 60_000, 'wf-own-8');
		expect(asked).toHaveLength(2);
		expect(asked[1]).toEqual({
			webhook_id: '111',
			from_date: '202611221140',
			to_date: '202611221221',
		});
	});

	it('later than that: from the copy’s arrival', async () => {
		const asked = await afterRecovery(T + 10 * 60_000 + 1, 'wf-own-9');
		expect(asked).toHaveLength(2);
		expect(asked[1]).toMatchObject({ from_date: '202611221220' });
	});
});

describe('the own replay, more cases', () => {
	it('a trigger whose static data holds no webhook id asks nothing (there is no webhook to replay)', async () => {
		const asked = serveReplays(() => JOB);
		const clock = manualClock(T);
		const d = delivery('own-10', { lastReceivedAt: new Date(T).toISOString() }, 'wf-own-10');
		const result = await receiveDelivery(
			d.context,
			new Date(T),
			STARTED,
			new DeliveryMemory(),
			clock,
		);
		expect(result.workflowData).toBeDefined();
		d.response.emit('finish');
		await clock.advance(ORPHANED_CLAIM_MS + 1_000);
		expect(asked).toEqual([]);
	});

	it('a trigger deactivated while a delivery waited for a copy’s outcome asks no replay for it (its credential is no longer kept)', async () => {
		const asked = serveReplays(() => JOB);
		const clock = manualClock(T);
		const memory = new DeliveryMemory();
		const favorites = (ids: string[]) =>
			favoritesDelivery(
				ids,
				{ webhookId: '111', lastReceivedAt: new Date(T).toISOString() },
				'wf-own-12',
				{ recoverMissedEvents: true },
			);
		const first = favorites(['wait-x']);
		const running = await receiveDelivery(first.context, new Date(T), STARTED, memory, clock);
		// A second delivery carries a copy of wait-x (its run not started yet) and a new event: it waits.
		const second = favorites(['wait-x', 'wait-y']);
		const waiting = receiveDelivery(second.context, new Date(T + 1_000), STARTED, memory, clock);
		await clock.advance(0);
		// Deactivated meanwhile: the trigger forgets its credential read.
		forgetConsumerSecret(second.context);
		void running.webhookResponse; // n8n started the first delivery's run
		await clock.advance(0);
		const result = await waiting;
		expect(result.workflowData?.[0]).toHaveLength(1);
		second.response.emit('finish'); // n8n did not start it
		await clock.advance(2 * ORPHANED_CLAIM_MS);
		expect(asked).toEqual([]);
	});

	it('a delivery of two events of which a retry ran only one: asked for, the other has not run', async () => {
		const asked = serveReplays(() => JOB);
		const clock = manualClock(T);
		const memory = new DeliveryMemory();
		const favorites = (ids: string[], staticData: IDataObject) =>
			favoritesDelivery(ids, staticData, 'wf-own-11', { recoverMissedEvents: true });
		const both = favorites(['fav-a', 'fav-b'], {
			webhookId: '111',
			lastReceivedAt: new Date(T).toISOString(),
		});
		const result = await receiveDelivery(both.context, new Date(T), STARTED, memory, clock);
		expect(result.workflowData?.[0]).toHaveLength(2);
		both.response.emit('finish'); // n8n did not start it
		await clock.advance(12_000);
		const retry = favorites(['fav-a'], { webhookId: '111' });
		const ran = await receiveDelivery(retry.context, new Date(T + 12_000), STARTED, memory, clock);
		expect(ran.workflowData?.[0]).toHaveLength(1);
		void ran.webhookResponse; // n8n started the retry's run (fav-a only)
		await clock.advance(ORPHANED_CLAIM_MS);
		expect(asked).toEqual([
			{ webhook_id: '111', from_date: '202611221210', to_date: '202611221211' },
		]);
	});

	it('deliveries due at the same moment with different starts: the shared request starts at the oldest', async () => {
		const asked = serveReplays(() => JOB);
		const t0 = Date.parse('2026-11-22T12:10:50Z');
		const clock = manualClock(t0);
		const memory = new DeliveryMemory();
		await notStarted('own-13', t0, memory, clock, 'wf-own-13'); // due at t0 + 60 s
		await clock.advance(30_000);
		// A retry of own-13 fails too (its replay starts at its first arrival, t0), and a new event
		// own-14 fails beside it (from its own arrival, 12:11:20): both due at t0 + 90 s.
		await notStarted('own-13', t0 + 30_000, memory, clock, 'wf-own-13');
		await notStarted('own-14', t0 + 30_000, memory, clock, 'wf-own-13');
		await clock.advance(30_000);
		expect(asked).toHaveLength(1);
		await clock.advance(30_000);
		expect(asked).toHaveLength(2);
		expect(asked[1]).toMatchObject({ from_date: '202611221210' });
	});
});
