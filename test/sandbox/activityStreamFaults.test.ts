/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * The sandbox's activity stream faults the trigger's tests use: an over-long line (issue 53: the
 * trigger's line buffer has a maximum length) reaches every open connection once, ended by a line
 * end, and is not in the stream's log (a catch-up does not send it again).
 */
import { sleep } from 'n8n-workflow';

const { createSandbox } = require('../../sandbox/server');

type Sandbox = {
	url: string;
	keys: Record<string, string>;
	activityStream: { log: unknown[]; connections: Set<unknown> };
	close(): Promise<void>;
};

let sb: Sandbox;
beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
});
afterAll(async () => await sb.close());

async function control(path: string, body: unknown) {
	const res = await fetch(sb.url + path, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the activity stream: an over-long line', () => {
	it('writes one line of the length asked to each open connection, and keeps it out of the log', async () => {
		const abort = new AbortController();
		const res = await fetch(`${sb.url}/2/activity/stream`, {
			headers: { authorization: `Bearer ${sb.keys.bearerToken}` },
			signal: abort.signal,
		});
		expect(res.status).toBe(200);
		for (let i = 0; i < 50 && sb.activityStream.connections.size === 0; i++) await sleep(20);
		const length = 200_000;
		expect(await control('/_sandbox/activity-stream/long-line', { length })).toEqual({
			status: 200,
			body: { written: 1, length },
		});
		const reader = res.body!.getReader();
		let text = '';
		while (!text.includes('\r\n')) {
			const { value } = await reader.read();
			text += Buffer.from(value!).toString('utf8');
		}
		abort.abort();
		const line = text.slice(0, text.indexOf('\r\n'));
		expect(line).toHaveLength(length);
		expect(line).toMatch(/^x+$/);
		expect(sb.activityStream.log).toHaveLength(0);
	});

	it('refuses a length that is not a whole number from 1 to 64 MiB', async () => {
		expect((await control('/_sandbox/activity-stream/long-line', { length: 0 })).status).toBe(400);
		expect((await control('/_sandbox/activity-stream/long-line', { length: 'x' })).status).toBe(
			400,
		);
	});
});
