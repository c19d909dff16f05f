/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * The sandbox's emitted posts as the service shapes them: replies, reposts and quotes reference the
 * other post; a repost has no media of its own; a deleted post's image is gone. Each rule has a
 * request that breaks it and expects the refusal.
 */
const { createSandbox } = require('../../sandbox/server');

type Sandbox = {
	url: string;
	db: {
		webhooks: Map<string, Record<string, unknown>>;
		events: Array<{ webhook_id: string; raw: string }>;
	};
	close(): Promise<void>;
};
let sb: Sandbox;
// A webhook the service has marked invalid: it records every event (the replay source) with the body
// it would deliver, and sends nothing, so no receiver is needed to read the delivered shape.
const HOOK = '9000000000000000001';

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
	sb.db.webhooks.set(HOOK, {
		id: HOOK,
		url: 'https://receiver.example/webhook',
		valid: false,
		created_at: new Date().toISOString(),
	});
});
afterAll(async () => {
	await sb.close();
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
	const r = await control('POST', '/_sandbox/events', {
		event_type: 'post.create',
		webhook_id: HOOK,
		...input,
	});
	if (r.status !== 200) return { status: r.status, body: r.body, delivered: undefined };
	const last = sb.db.events.filter((e) => e.webhook_id === HOOK).pop();
	const delivered = last ? (JSON.parse(last.raw).data as Record<string, unknown>) : undefined;
	return { status: r.status, body: r.body, delivered };
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

describe('sandbox: activity event types', () => {
	async function subscribe(eventType: string, token = 'sandbox-app-bearer-token') {
		const res = await fetch(`${sb.url}/2/activity/subscriptions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
			body: JSON.stringify({ event_type: eventType, filter: { user_id: '1000000001' } }),
		});
		return { status: res.status, body: (await res.json()) as Record<string, unknown> };
	}

	it.each([
		'profile.update.verified_badge',
		'profile.update.affiliate_badge',
		'profile.update.profile_picture',
		'profile.update.banner_picture',
		'profile.update.geo',
		'profile.update.url',
		'profile.update.handle',
		'news.new',
		'follow.follow',
		'follow.unfollow',
		'ProfileVerifiedBadgeUpdate',
	])('takes a subscription to %s', async (eventType) => {
		expect((await subscribe(eventType)).status).toBe(200);
	});

	it.each(['profile.update.verified', 'profile.update.affiliate', 'profile.update.picture'])(
		'refuses the name %s, which the service does not know',
		async (eventType) => {
			const refused = await subscribe(eventType);
			expect(refused.status).toBe(400);
			expect(errorText(refused.body)).toContain('event_type');
		},
	);

	it('takes chat subscriptions only with a user token', async () => {
		expect((await subscribe('chat.received')).status).toBe(403);
		expect((await subscribe('chat.sent', 'sandbox-oauth2-user-token')).status).toBe(200);
	});

	async function emitted(eventType: string) {
		const r = await control('POST', '/_sandbox/events', {
			event_type: eventType,
			webhook_id: HOOK,
		});
		expect(r.status).toBe(200);
		const last = sb.db.events.filter((e) => e.webhook_id === HOOK).pop();
		return JSON.parse(last!.raw) as { data: Record<string, unknown> };
	}

	it.each([
		'profile.update.bio',
		'profile.update.profile_picture',
		'profile.update.banner_picture',
		'profile.update.geo',
		'profile.update.url',
		'profile.update.handle',
		'profile.update.screenname',
		'profile.update.verified_badge',
		'profile.update.affiliate_badge',
	])('emits %s in the envelope, with the before and after values as strings', async (type) => {
		const { data } = await emitted(type);
		expect(data.event_type).toBe(type);
		expect(data.event_uuid).toMatch(/^-?\d{1,19}$/);
		expect(Object.keys(data.payload as object).sort()).toEqual(['after', 'before']);
		for (const v of Object.values(data.payload as object)) expect(typeof v).toBe('string');
	});

	it.each(['follow.follow', 'follow.unfollow'])(
		'emits %s with the follower (source) and the followed user (target)',
		async (type) => {
			const { data } = await emitted(type);
			const payload = data.payload as Record<string, Record<string, unknown>>;
			expect(Object.keys(payload).sort()).toEqual(['source', 'target']);
			expect(payload.target.id).toBe('1000000001');
			expect(payload.source.username).toEqual(expect.any(String));
		},
	);

	it('emits news.new with the story', async () => {
		const { data } = await emitted('news.new');
		expect(Object.keys(data.payload as object).sort()).toEqual([
			'category',
			'headline',
			'hook',
			'summary',
		]);
	});

	it.each(['chat.received', 'chat.sent'])('emits %s in the same envelope', async (type) => {
		const { data } = await emitted(type);
		expect(data).toMatchObject({
			event_type: type,
			payload: { conversation_id: expect.any(String) },
		});
	});
});
