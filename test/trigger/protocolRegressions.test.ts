/**
 * Regression cases of the delivery protocol: schedules a review or the explorer (explorer.test.ts)
 * found breaking "each event runs once", each kept as it was found. The first ones drive the trigger
 * the way n8n does, request by request; the rest replay the explorer's shrunk schedules in its model.
 */
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';

import { runSchedule, violation, type Schedule } from './explorer/model';
import { answerOf, signedDelivery } from './helpers';

type ReceiveModule = typeof import('../../nodes/PlatformTrigger/receive');

/** A new n8n process: the trigger's modules with empty memory. */
function newProcess(): ReceiveModule {
	let mod: ReceiveModule | undefined;
	jest.isolateModules(() => {
		mod = jest.requireActual<ReceiveModule>('../../nodes/PlatformTrigger/receive');
	});
	return mod as ReceiveModule;
}

const at = new Date('2026-03-01T10:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);
/** Process start times before the last delivery: no restart recovery in these cases. */
const STARTED = Date.parse('2026-03-01T09:00:00Z');

/** The workflow's static data row: read per request, saved whole when a request changed its copy. */
function database() {
	let row: IDataObject = { webhookId: 'wh-1', lastReceivedAt: '2026-03-01T09:59:00Z' };
	return {
		read: (): IDataObject => JSON.parse(JSON.stringify(row)) as IDataObject,
		/** n8n reads the answer once the run has started and saves the copy if that changed it. */
		startRun: (result: IWebhookResponseData, copy: IDataObject) => {
			const before = JSON.stringify(copy);
			void result.webhookResponse;
			if (JSON.stringify(copy) !== before) row = JSON.parse(JSON.stringify(copy)) as IDataObject;
		},
	};
}

function delivery(id: string, staticData: IDataObject) {
	return signedDelivery(
		{ data: { event_uuid: id, event_type: 'post.create', payload: { id } } },
		{
			parameters: { mode: 'activity', events: ['post.create'], options: {} },
			staticData,
			workflowId: 'wf-regress',
			typeVersion: 3,
		},
	);
}

const ran = (result: IWebhookResponseData) =>
	result.workflowData?.[0].map((item) => String(item.json.event_id)) ?? [];

describe('delivery protocol regressions', () => {
	it('an acknowledged event is in the saved record even when the delivery answered beside it fails to start (a graceful restart then replays it as a duplicate)', async () => {
		const db = database();
		const p = newProcess();
		// A lone delivery writes the record.
		const c0 = db.read();
		const d0 = delivery('r1-0', c0);
		db.startRun(await p.receiveDelivery(d0.context, at, STARTED), c0);
		d0.response.emit('finish');
		// Two deliveries in flight together; the first one's run starts and it is answered 200.
		const c1 = db.read();
		const c2 = db.read();
		const d1 = delivery('r1-1', c1);
		const d2 = delivery('r1-2', c2);
		const r1 = await p.receiveDelivery(d1.context, later(100), STARTED);
		const r2 = await p.receiveDelivery(d2.context, later(100), STARTED);
		expect([ran(r1), ran(r2)]).toEqual([['r1-1'], ['r1-2']]);
		db.startRun(r1, c1);
		d1.response.emit('finish');
		// n8n cannot start the second run and answers it 500 (its answer is never read).
		d2.response.emit('finish');
		// The process stops gracefully; the service replays the minutes around the restart to the next one.
		const q = newProcess();
		const replayed = await q.receiveDelivery(
			delivery('r1-1', db.read()).context,
			later(60_000),
			STARTED,
		);
		expect(ran(replayed)).toEqual([]);
		// The failed one was not acknowledged: it runs.
		expect(
			ran(await q.receiveDelivery(delivery('r1-2', db.read()).context, later(61_000), STARTED)),
		).toEqual(['r1-2']);
	});

	it('a copy sent while the first attempt is still being started is not acknowledged before that attempt’s run starts; if it never starts, a later copy runs', async () => {
		const db = database();
		const p = newProcess();
		const first = delivery('r2', db.read());
		expect(ran(await p.receiveDelivery(first.context, at, STARTED))).toEqual(['r2']);
		// n8n is slow to start the run; after 10 s the service hangs up and sends the event again.
		first.response.emit('close');
		const copy = delivery('r2', db.read());
		const answered = await p.receiveDelivery(copy.context, later(12_000), STARTED);
		// n8n then fails to start the first run: its 500 goes to a closed connection, nothing is sent.
		// The copy was not acknowledged as a duplicate meanwhile.
		expect(answerOf(answered, copy.captured).status).not.toBe(200);
		expect(ran(answered)).toEqual([]);
		// The service sends it again; a minute after the first attempt, its claim is taken over.
		const again = delivery('r2', db.read());
		expect(ran(await p.receiveDelivery(again.context, later(70_000), STARTED))).toEqual(['r2']);
	}, 20_000);
});

/** Shrunk schedules the explorer found; each broke an invariant before its fix. */
const found: Array<[string, Schedule]> = [
	[
		'the first delivery after a restart, answered before its run, is lost when the process stops before the run starts',
		{
			processes: 1,
			routing: false,
			accountActivity: false,
			steps: [
				{ at: 0, kind: 'event', batchWith: false, twice: false },
				{ at: 0, kind: 'stop', process: 0, downMs: 0 },
			],
			starts: [{ delayMs: 0, fails: false }],
			retryDelaysMs: [200],
			saveDelaysMs: [0],
		},
	],
	[
		'a copy waiting for the first attempt runs once that attempt fails to start, and the first attempt’s retry is then a duplicate',
		{
			processes: 1,
			routing: false,
			accountActivity: false,
			steps: [
				{ at: 0, kind: 'event', batchWith: false, twice: false },
				{ at: 0, kind: 'event', batchWith: false, twice: true },
			],
			starts: [
				{ delayMs: 0, fails: true },
				{ delayMs: 0, fails: false },
			],
			retryDelaysMs: [200],
			saveDelaysMs: [0],
		},
	],
];

describe('schedules the explorer found', () => {
	it.each(found)('%s', async (_name, schedule) => {
		expect(await violation(schedule)).toBeUndefined();
		const outcome = await runSchedule(schedule);
		expect(outcome.events.every((id) => outcome.runs.get(id) === 1)).toBe(true);
	});
});
