import nock from 'nock';

import { BASE } from '../helpers/context';
import { run as runNode, runFailing as runNodeFailing, setupNock } from './helpers';

setupNock();

const BEARER = { authentication: 'platformBearerApi' };
const base = { resource: 'admin', operation: 'revalidateWebhooks' };
const run = (parameters: Record<string, unknown> = {}) =>
	runNode({ ...base, ...parameters }, undefined, BEARER);
const runFailing = (parameters: Record<string, unknown> = {}) =>
	runNodeFailing({ ...base, ...parameters }, undefined, BEARER);

const LIST = {
	data: [
		{ id: '11', url: 'https://n8n.example/webhook/a/webhook', valid: true },
		{ id: '22', url: 'https://n8n.example/webhook/b/webhook', valid: false },
	],
	meta: { result_count: 2 },
};
const CRC_FAILED = {
	title: 'Invalid Request',
	detail: 'One or more parameters to your request was invalid.',
	type: 'https://api.x.com/2/problems/invalid-request',
	errors: [{ message: 'CrcValidationFailed: status 502', parameters: { webhook_id: ['22'] } }],
};

describe('Admin → Re-Validate Invalid Webhooks (the trigger watchdog)', () => {
	it('re-validates only the invalid webhooks and outputs one item per webhook, paired with the input', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, LIST)
			.put('/2/webhooks/22')
			.reply(200, { data: { valid: true } });
		const { output, requests } = await run();
		expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
			'GET /2/webhooks',
			'PUT /2/webhooks/22',
		]);
		expect(output).toEqual([
			{
				json: {
					webhook_id: '11',
					url: LIST.data[0].url,
					was_valid: true,
					action: 'none',
					valid: true,
				},
				pairedItem: { item: 0 },
			},
			{
				json: {
					webhook_id: '22',
					url: LIST.data[1].url,
					was_valid: false,
					action: 'revalidated',
					valid: true,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('fails naming the webhook that stays invalid; with the option off, outputs it as still_invalid', async () => {
		nock(BASE).get('/2/webhooks').reply(200, LIST).put('/2/webhooks/22').reply(400, CRC_FAILED);
		const failing = await runFailing();
		expect(failing.error.message).toMatch(/^1 webhook of the app stayed invalid: 22 \(/);
		nock(BASE).get('/2/webhooks').reply(200, LIST).put('/2/webhooks/22').reply(400, CRC_FAILED);
		const { output } = await run({ failWhenStillInvalid: false });
		expect(output[1].json).toMatchObject({
			webhook_id: '22',
			action: 'still_invalid',
			valid: false,
			http_code: '400',
		});
	});

	it('replays the last N hours for each re-validated webhook; a running replay job is reported, not retried', async () => {
		nock(BASE)
			.get('/2/webhooks')
			.reply(200, LIST)
			.put('/2/webhooks/22')
			.reply(200, { data: { valid: true } })
			.post(
				'/2/webhooks/replay',
				(body) =>
					body.webhook_id === '22' &&
					/^\d{12}$/.test(body.from_date) &&
					/^\d{12}$/.test(body.to_date),
			)
			.reply(200, { data: { job_id: 'j1', created_at: '2026-01-01T00:00:00.000Z' } });
		const first = await run({ replayHours: 2 });
		const replay = first.output[1].json.replay as Record<string, string>;
		expect(replay.job_id).toBe('j1');
		const hours =
			(Date.parse(
				`${replay.to_date.replace(/(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)/, '$1-$2-$3T$4:$5')}Z`,
			) -
				Date.parse(
					`${replay.from_date.replace(/(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)/, '$1-$2-$3T$4:$5')}Z`,
				)) /
			3600e3;
		expect(hours).toBeGreaterThan(1.95);
		expect(hours).toBeLessThanOrEqual(2);
		expect(first.output[0].json.replay).toBeUndefined();

		nock(BASE)
			.get('/2/webhooks')
			.reply(200, LIST)
			.put('/2/webhooks/22')
			.reply(200, { data: { valid: true } })
			.post('/2/webhooks/replay')
			.reply(409, {
				title: 'Conflict',
				detail: 'A replay job is already in progress.',
				type: 'https://api.x.com/2/problems/conflict',
				status: 409,
			});
		const second = await run({ replayHours: 2 });
		expect(
			second.requests.filter((r) => new URL(r.url).pathname === '/2/webhooks/replay'),
		).toHaveLength(1);
		expect((second.output[1].json.replay as Record<string, string>).skipped).toBe(
			'a replay job is already running for the app',
		);
	});

	it('refuses more than 24 hours of replay, and a user credential, before any request', async () => {
		const tooLong = await runFailing({ replayHours: 30 });
		expect(tooLong.error.message).toBe(
			'Invalid input in item 1: Replay the Last N Hours: the service replays at most the past 24 hours',
		);
		expect(tooLong.requests).toHaveLength(0);
		const user = await runNodeFailing(base);
		expect(user.error.message).toBe(
			'Re-validate invalid webhooks needs App-Only Bearer Token authentication',
		);
		expect(user.requests).toHaveLength(0);
	});
});
