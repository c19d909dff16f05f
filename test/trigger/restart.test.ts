import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { answerCrc, processStartedAt, receiveDelivery } from '../../nodes/PlatformTrigger/receive';
import { BASE } from '../helpers/context';
import { sign, webhookContext } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const STARTED = Date.parse('2026-11-22T12:00:00Z');
const NOW = new Date('2026-11-22T12:05:30Z');

function context(staticData: IDataObject, body?: IDataObject, query: IDataObject = {}) {
	const raw = Buffer.from(JSON.stringify(body ?? {}));
	return webhookContext({ raw, headers: { 'x-platform-webhooks-signature': sign(raw) }, query, staticData });
}

const event = (id: string) => ({ data: { event_uuid: id, event_type: 'post.create', payload: { id: '9' } } });

describe('recovery after an n8n restart (no webhook method runs then)', () => {
	it('the first delivery after the start asks for a replay of the gap, once per process start', async () => {
		const replays: IDataObject[] = [];
		nock(BASE)
			.post('/2/webhooks/replay', (b) => (replays.push(b), true))
			.reply(200, { data: { job_id: 'j1' } });
		const staticData: IDataObject = { webhookId: '111', lastReceivedAt: '2026-11-22T11:40:10Z' };
		const first = context(staticData, event('1'));
		const out = await receiveDelivery(first.context, NOW, STARTED);
		expect(out.workflowData?.[0]).toHaveLength(1);
		// Answered by the node before the run starts, so that n8n saves the static data first.
		expect(out.noWebhookResponse).toBe(true);
		expect(first.captured).toEqual({ status: 200, body: { ok: true, events: 1 } });
		expect(replays).toEqual([{ webhook_id: '111', from_date: '202611221140', to_date: '202611221205' }]);
		expect(staticData.recoveredAfterStart).toBe(STARTED);
		const second = context(staticData, event('2'));
		await receiveDelivery(second.context, new Date('2026-11-22T12:06:00Z'), STARTED);
		expect(replays).toHaveLength(1);
		expect(second.requests).toHaveLength(0);
	});

	it('asks for nothing when the last delivery came after the process started', async () => {
		const built = context({ webhookId: '111', lastReceivedAt: '2026-11-22T12:01:00Z' }, event('1'));
		await receiveDelivery(built.context, NOW, STARTED);
		expect(built.requests).toHaveLength(0);
	});

	it('a CRC check after the start asks for the replay too, and is still answered', async () => {
		nock(BASE).post('/2/webhooks/replay').reply(200, { data: { job_id: 'j2' } });
		const staticData: IDataObject = { webhookId: '111', lastReceivedAt: '2026-11-22T10:00:00Z' };
		const built = context(staticData, undefined, { crc_token: 'abcdefghijklmnopqrstuvwx' });
		await answerCrc(built.context, NOW, STARTED);
		expect(built.captured.status).toBe(200);
		expect(String((built.captured.body as IDataObject | undefined)?.response_token)).toMatch(/^sha256=/);
		expect(built.requests.map((r) => new URL(r.url).pathname)).toEqual(['/2/webhooks/replay']);
	});

	it('a refused replay is logged and the delivery still runs', async () => {
		nock(BASE).post('/2/webhooks/replay').reply(400, { title: 'Invalid Request', detail: 'from_date is too old', type: 'about:blank' });
		const built = context({ webhookId: '111', lastReceivedAt: '2026-11-22T11:00:00Z' }, event('1'));
		const out = await receiveDelivery(built.context, NOW, STARTED);
		expect(out.workflowData?.[0]).toHaveLength(1);
		expect(built.logs.some((l) => l.level === 'error' && /replay the events missed/.test(l.message))).toBe(true);
	});

	it('knows when this process started', () => {
		expect(processStartedAt()).toBeLessThanOrEqual(Date.now());
		expect(processStartedAt()).toBeGreaterThan(Date.now() - 24 * 3600_000);
	});
});
