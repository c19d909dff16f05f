/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * The sandbox's emitted posts as the service shapes them: replies, reposts and quotes reference the
 * other post; a repost has no media of its own; a deleted post's image is gone. Each rule has a
 * request that breaks it and expects the refusal.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const { createSandbox } = require('../../sandbox/server');

type Sandbox = {
	url: string;
	keys: Record<string, string>;
	db: { webhooks: Map<string, Record<string, unknown>> };
	close(): Promise<void>;
};
let sb: Sandbox;
let receiver: http.Server;
const received: Array<Record<string, unknown>> = [];

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
	// A webhook receiver that answers CRC checks and records deliveries.
	receiver = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://x');
		if (req.method === 'GET') {
			const token = url.searchParams.get('crc_token') ?? '';
			const hash = createHmac('sha256', sb.keys.consumerSecret).update(token).digest('base64');
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ response_token: `sha256=${hash}` }));
			return;
		}
		let body = '';
		req.on('data', (c) => (body += c));
		req.on('end', () => {
			received.push(JSON.parse(body));
			res.end('{}');
		});
	});
	await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
	const port = (receiver.address() as AddressInfo).port;
	await control('POST', '/_sandbox/options', { allowInsecureWebhookUrls: true });
	const made = await fetch(`${sb.url}/2/webhooks`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sb.keys.bearerToken}`, 'content-type': 'application/json' },
		body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
	});
	expect(made.status).toBeLessThan(300);
});
afterAll(async () => {
	await sb.close();
	await new Promise((r) => receiver.close(r));
});

async function control(method: string, path: string, body?: unknown) {
	const res = await fetch(sb.url + path, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: res.status, body: json as Record<string, unknown> };
}

async function emitPost(input: Record<string, unknown>) {
	const before = received.length;
	const r = await control('POST', '/_sandbox/events', { event_type: 'post.create', ...input });
	if (r.status !== 200) return { status: r.status, body: r.body, delivered: undefined };
	const delivered = received.slice(before).pop() as { data: Record<string, unknown> } | undefined;
	return { status: r.status, body: r.body, delivered: delivered?.data };
}

const errorText = (body: Record<string, unknown>) => JSON.stringify(body.errors ?? body);

describe('sandbox: replies, reposts, quotes and deleted posts', () => {
	it('a reply, a repost and a quote reference the other post', async () => {
		const reply = (await emitPost({ reply_to: '1234567890' })).delivered?.payload as Record<
			string,
			unknown
		>;
		expect(reply.referenced_tweets).toEqual([{ type: 'replied_to', id: '1234567890' }]);
		expect(reply.in_reply_to_user_id).toBe('1000000002');
		expect(reply.conversation_id).toBe('1234567890');
		const repost = (await emitPost({ repost_of: '1234567891', text: 'their text' })).delivered
			?.payload as Record<string, unknown>;
		expect(repost.referenced_tweets).toEqual([{ type: 'retweeted', id: '1234567891' }]);
		expect(repost.text).toBe('RT @other_person: their text');
		const quote = (await emitPost({ quote_of: '1234567892', media: true })).delivered;
		expect((quote?.payload as Record<string, unknown>).referenced_tweets).toEqual([
			{ type: 'quoted', id: '1234567892' },
		]);
		expect((quote?.includes as { media: unknown[] }).media).toHaveLength(1);
		const plain = (await emitPost({ text: 'just a post' })).delivered?.payload as Record<
			string,
			unknown
		>;
		expect(plain.referenced_tweets).toBeUndefined();
		expect(plain.attachments).toBeUndefined();
	});

	it('refuses two references, a reference that is not a post id and a repost with media', async () => {
		const two = await emitPost({ reply_to: '1', quote_of: '2' });
		expect(two.status).toBe(400);
		expect(errorText(two.body)).toMatch(/one other post at most/);
		const notId = await emitPost({ quote_of: 'abc' });
		expect(notId.status).toBe(400);
		expect(errorText(notId.body)).toMatch(/quote_of must be a post id/);
		const repostMedia = await emitPost({ repost_of: '5', media: true });
		expect(repostMedia.status).toBe(400);
		expect(errorText(repostMedia.body)).toMatch(/no media of its own/);
	});

	it("a deleted post's image answers 404; the post's other events keep their shape", async () => {
		const live = (await emitPost({ media: true })).delivered;
		const liveUrl = (live?.includes as { media: Array<{ url: string }> }).media[0].url;
		expect((await fetch(liveUrl)).status).toBe(200);
		const gone = (await emitPost({ media: true, deleted: true })).delivered;
		const media = (gone?.includes as { media: Array<Record<string, unknown>> }).media[0];
		expect(media.deleted).toBeUndefined(); // the sandbox's own mark is not sent
		expect((await fetch(String(media.url))).status).toBe(404);
		// Deleting the first post later (post.delete) takes its image down too.
		const id = (live?.payload as { id: string }).id;
		expect(
			(await control('POST', '/_sandbox/events', { event_type: 'post.delete', post_id: id }))
				.status,
		).toBe(200);
		expect((await fetch(liveUrl)).status).toBe(404);
	});
});
