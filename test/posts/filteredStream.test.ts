/**
 * Post → Read Filtered Stream against the sandbox's real chunked stream: the posts matching the app's
 * rules, backfilled and as they are published, in the Platform Trigger's post.match item shape, within
 * Max Posts and Max Duration; the app-only bearer only.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { TestSandbox } from './sandboxNode';
import { runOn, startTestSandbox } from './sandboxNode';

type StreamSandbox = TestSandbox & {
	emitStreamPost(input: { text: string }): Promise<{ post: IDataObject }>;
};

let sb: StreamSandbox;
const APP = { authentication: 'platformBearerApi' };
const read = (parameters: IDataObject) =>
	runOn(sb, { resource: 'post', operation: 'readFilteredStream', ...parameters }, APP);

beforeAll(async () => {
	sb = (await startTestSandbox()) as StreamSandbox;
	sb.db.streamRules.set('r1', { id: 'r1', value: 'autumn sale', tag: 'sale' });
});
afterAll(async () => await sb.close());

describe('Post → Read Filtered Stream', () => {
	it('returns the backfilled matches as post.match items and stops at Max Posts without waiting', async () => {
		const first = (await sb.emitStreamPost({ text: 'the autumn sale starts' })).post;
		await sb.emitStreamPost({ text: 'nothing to see' });
		const second = (await sb.emitStreamPost({ text: 'autumn sale: last day' })).post;
		const started = Date.now();
		const { output, requests, error } = await read({
			backfillMinutes: 5,
			maxEvents: 2,
			maxSeconds: 30,
			tweetFields: ['created_at'],
			expansions: ['author_id'],
		});
		expect(error).toBeUndefined();
		const url = new URL(requests[0].url as string);
		expect(url.pathname).toBe('/2/tweets/search/stream');
		expect(url.searchParams.get('backfill_minutes')).toBe('5');
		expect(url.searchParams.get('tweet.fields')).toBe('created_at');
		expect(output.map((i) => i.json.event_id)).toEqual([first.id, second.id]);
		expect(output[0].json).toMatchObject({
			event_type: 'post.match',
			post: { id: first.id, text: 'the autumn sale starts' },
			matching_rules: [{ id: 'r1', tag: 'sale' }],
			tags: ['sale'],
		});
		for (const item of output) expect(item.pairedItem).toEqual({ item: 0 });
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	it('returns what is published while it reads, until Max Duration', async () => {
		const reading = read({ backfillMinutes: 0, maxEvents: 50, maxSeconds: 2 });
		await sleep(700);
		const post = (await sb.emitStreamPost({ text: 'autumn sale now' })).post;
		const { output, error } = await reading;
		expect(error).toBeUndefined();
		expect(output.map((i) => i.json.event_id)).toEqual([post.id]);
	});

	it('refuses Max Duration out of range and any credential but the app-only bearer before connecting', async () => {
		const tooLong = await read({ maxSeconds: 601 });
		expect(tooLong.error?.message).toMatch(/Max Duration \(Seconds\)/);
		expect(tooLong.requests).toHaveLength(0);
		const user = await runOn(sb, { resource: 'post', operation: 'readFilteredStream' });
		expect(user.error?.message).toMatch(/needs App-Only Bearer Token authentication/);
		expect(user.requests).toHaveLength(0);
	});
});
