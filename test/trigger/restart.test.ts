import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { answerCrc, processStartedAt, receiveDelivery } from '../../nodes/triggers/webhook/receive';
import { BASE } from '../helpers/context';
import { answerOf, sign, webhookContext } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const STARTED = Date.parse('2026-11-22T12:00:00Z');
const NOW = new Date('2026-11-22T12:05:30Z');

function context(
	staticData: IDataObject,
	body?: IDataObject,
	query: IDataObject = {},
	workflowId?: string,
) {
	const raw = Buffer.from(JSON.stringify(body ?? {}));
	return webhookContext({
		raw,
		headers: { 'x-platform-webhooks-signature': sign(raw) },
		query,
		staticData,
		workflowId,
	});
}

const event = (id: string) => ({
	data: { event_uuid: id, event_type: 'post.create', payload: { id: '9' } },
});

/** Resolves with the body of the next replay request the node sends. */
function replayRequested(
	reply: () => nock.Interceptor['reply'] extends (...a: infer A) => unknown ? A : never,
) {
	let resolve!: (body: IDataObject) => void;
	const seen = new Promise<IDataObject>((r) => (resolve = r));
	nock(BASE)
		.post('/2/webhooks/replay', (b) => (resolve(b as IDataObject), true))
		.reply(...reply());
	return seen;
}

async function until(check: () => boolean, what: string): Promise<void> {
	for (let i = 0; i < 500; i++) {
		if (check()) return;
		await sleep(10);
	}
	throw new Error(`never happened: ${what}`);
}

describe('recovery after an n8n restart (no webhook method runs then)', () => {
	it('the first delivery after the start asks for a replay of the gap, once per process start', async () => {
		const replay = replayRequested(() => [200, { data: { job_id: 'j1' } }]);
		const staticData: IDataObject = { webhookId: '111', lastReceivedAt: '2026-11-22T11:40:10Z' };
		const first = context(staticData, event('1'), {}, 'wf-restart-1');
		const out = await receiveDelivery(first.context, NOW, STARTED);
		// Runs as any delivery (n8n answers once the run has started); the replay is asked for beside it.
		expect(out.workflowData?.[0]).toHaveLength(1);
		expect(answerOf(out, first.captured)).toEqual({ status: 200, body: { ok: true, events: 1 } });
		expect(await replay).toEqual({
			webhook_id: '111',
			from_date: '202611221140',
			to_date: '202611221205',
		});
		// The same trigger in the same process: no second replay, whatever its static data says.
		const second = context(
			{ webhookId: '111', lastReceivedAt: '2026-11-22T11:40:10Z' },
			event('2'),
			{},
			'wf-restart-1',
		);
		await receiveDelivery(second.context, new Date('2026-11-22T12:06:00Z'), STARTED);
		await sleep(0);
		expect(second.requests).toHaveLength(0);
	});

	it('asks for nothing when the last delivery came after the process started', async () => {
		const built = context({ webhookId: '111', lastReceivedAt: '2026-11-22T12:01:00Z' }, event('1'));
		await receiveDelivery(built.context, NOW, STARTED);
		await sleep(0);
		expect(built.requests).toHaveLength(0);
	});

	it('a CRC check after the start asks for the replay too, and is still answered', async () => {
		const replay = replayRequested(() => [200, { data: { job_id: 'j2' } }]);
		const staticData: IDataObject = { webhookId: '111', lastReceivedAt: '2026-11-22T10:00:00Z' };
		const built = context(staticData, undefined, { crc_token: 'abcdefghijklmnopqrstuvwx' });
		await answerCrc(built.context, NOW, STARTED);
		expect(built.captured.status).toBe(200);
		expect(String((built.captured.body as IDataObject | undefined)?.response_token)).toMatch(
			/^sha256=/,
		);
		expect((await replay).webhook_id).toBe('111');
	});

	it('the CRC answer and the delivery acknowledgement are sent while the replay request is still open', async () => {
		for (const kind of ['crc', 'delivery'] as const) {
			const built =
				kind === 'crc'
					? context({ webhookId: '111', lastReceivedAt: '2026-11-22T10:00:00Z' }, undefined, {
							crc_token: 'abcdefghijklmnopqrstuvwx',
						})
					: context({ webhookId: '111', lastReceivedAt: '2026-11-22T10:00:00Z' }, event('held'));
			// The service holds the replay request until the test lets it fail.
			let fail!: (e: Error) => void;
			const held = new Promise<never>((_, reject) => (fail = reject));
			const asked: string[] = [];
			const helpers = (built.context as unknown as { helpers: IDataObject }).helpers;
			helpers.httpRequestWithAuthentication = async (_t: string, o: { url: string }) => {
				asked.push(o.url);
				return await held;
			};
			// The delivery sends the replay request with the bearer credential it read itself.
			helpers.httpRequest = async (o: { url: string }) => {
				asked.push(o.url);
				return await held;
			};
			let finished = false;
			const call = (
				kind === 'crc'
					? answerCrc(built.context, NOW, STARTED)
					: receiveDelivery(built.context, NOW, STARTED)
			).then((r) => {
				finished = true;
				return r;
			});
			await until(() => asked.length > 0, 'the replay request');
			expect(asked).toEqual([`${BASE}/2/webhooks/replay`]);
			if (kind === 'crc') {
				// Answered before the replay request, which is still open.
				expect(built.captured.status).toBe(200);
				expect(finished).toBe(false);
			} else {
				// The delivery did not wait for it: n8n can start its run and answer.
				await until(() => finished, 'the delivery to return');
				const out = await call;
				expect(out.workflowData?.[0]).toHaveLength(1);
				expect(answerOf(out, built.captured).status).toBe(200);
			}
			fail(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
			await call;
			await until(() => built.logs.some((l) => l.level === 'error'), 'the error line');
			expect(built.logs.some((l) => l.level === 'error' && /Replay Webhook/.test(l.message))).toBe(
				true,
			);
		}
	});

	it('a refused replay is logged with what to do, and the delivery still runs', async () => {
		nock(BASE).post('/2/webhooks/replay').reply(400, {
			title: 'Invalid Request',
			detail: 'from_date is too old',
			type: 'about:blank',
		});
		const built = context({ webhookId: '111', lastReceivedAt: '2026-11-22T11:00:00Z' }, event('1'));
		const out = await receiveDelivery(built.context, NOW, STARTED);
		expect(out.workflowData?.[0]).toHaveLength(1);
		await until(() => built.logs.some((l) => l.level === 'error'), 'an error log line');
		const line = built.logs.find((l) => l.level === 'error')!.message;
		expect(line).toMatch(/replay the events missed/);
		expect(line).toMatch(
			/Admin \(App-Only\) → Replay Webhook Events for webhook 111 from 2026-11-22T11:00:00Z/,
		);
	});

	it('a rate-limited replay after a restart is logged, not waited for', async () => {
		// The reset is within the transport's default wait: only an explicit "no wait" returns at once
		// (the test's own 5 s limit would be exceeded otherwise).
		const reset = String(Math.floor(Date.now() / 1000) + 20);
		nock(BASE)
			.post('/2/webhooks/replay')
			.reply(
				429,
				{ title: 'Too Many Requests', type: 'about:blank' },
				{ 'x-rate-limit-reset': reset },
			);
		const built = context(
			{ webhookId: '111', lastReceivedAt: '2026-11-22T11:00:00Z' },
			event('rl'),
		);
		const out = await receiveDelivery(built.context, NOW, STARTED);
		expect(out.workflowData?.[0]).toHaveLength(1);
		await until(() => built.logs.some((l) => l.level === 'error'), 'an error log line');
		expect(built.logs.some((l) => l.level === 'error' && /Replay Webhook/.test(l.message))).toBe(
			true,
		);
	}, 5000);

	it('knows when this process started', () => {
		expect(processStartedAt()).toBeLessThanOrEqual(Date.now());
		expect(processStartedAt()).toBeGreaterThan(Date.now() - 24 * 3600_000);
	});
});
