/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-explicit-any -- the sandbox is plain CommonJS, its answers untyped JSON */
/**
 * What the service does with replies and repeated text, as the sandbox answers it: on self-serve
 * tiers a programmatic reply is refused unless the author of the post replied to summoned the
 * replier (platform.md, Limits: mentioned the account or quoted its post); a post whose text the
 * account has posted already is refused with 403 (conventions.md, Posts: "duplicate content").
 * Each test breaks one rule and expects the refusal, and makes the same request right.
 */
export {};

const { createSandbox } = require('../../sandbox/server');

type Sandbox = {
	url: string;
	keys: Record<string, string>;
	options: Record<string, unknown>;
	close(): Promise<void>;
	publishPost(input: Record<string, unknown>): { id: string };
	addUser(input: Record<string, unknown>): { id: string; username: string };
};
let sb: Sandbox;

beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
});
afterAll(async () => await sb.close());

async function call(method: string, path: string, json?: unknown, control = false) {
	const headers: Record<string, string> = control
		? {}
		: { authorization: `Bearer ${sb.keys.oauth2UserToken}` };
	if (json !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(sb.url + path, {
		method,
		headers,
		body: json === undefined ? undefined : JSON.stringify(json),
	});
	const text = await res.text();
	return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

const reply = (text: string, to: string) =>
	call('POST', '/2/tweets', { text, reply: { in_reply_to_tweet_id: to } });

describe('replies on self-serve tiers (the default tier of the sandbox)', () => {
	it('refuses a reply to another author who did not summon the account', async () => {
		const other = sb.addUser({ username: 'someone_else' });
		const post = sb.publishPost({ text: 'Nice weather today', author_id: other.id });
		const refused = await reply('I agree', post.id);
		expect(refused.status).toBe(403);
		expect(refused.body).toMatchObject({ type: 'about:blank', title: 'Forbidden', status: 403 });
	});

	it('takes a reply to a post that mentions the account, or quotes its post', async () => {
		const other = sb.addUser({ username: 'mentioner' });
		const mention = sb.publishPost({
			text: `Hey @${sb.keys.username}, what do you think?`,
			author_id: other.id,
		});
		expect((await reply('Thanks for asking', mention.id)).status).toBe(201);
		const mine = sb.publishPost({ text: 'My own announcement' });
		const quote = sb.publishPost({ text: 'Quoting this', author_id: other.id });
		// A quote of the account's post, as the service stores it.
		(sb as any).db.tweets.get(quote.id).referenced_tweets = [{ type: 'quoted', id: mine.id }];
		expect((await reply('Thanks for sharing', quote.id)).status).toBe(201);
	});

	it('takes a reply to the account own post (a thread), naming it in referenced_tweets', async () => {
		const first = await call('POST', '/2/tweets', { text: 'Thread part one' });
		expect(first.status).toBe(201);
		const second = await reply('Thread part two', first.body.data.id);
		expect(second.status).toBe(201);
		const read = await call(
			'GET',
			`/2/tweets/${second.body.data.id}?tweet.fields=referenced_tweets,author_id`,
		);
		expect(read.body.data.referenced_tweets).toEqual([
			{ type: 'replied_to', id: first.body.data.id },
		]);
	});

	it('takes any reply on the enterprise tier', async () => {
		const other = sb.addUser({ username: 'enterprise_peer' });
		const post = sb.publishPost({ text: 'Enterprise tier post', author_id: other.id });
		await call('POST', '/_sandbox/options', { tier: 'enterprise' }, true);
		try {
			expect((await reply('An enterprise reply', post.id)).status).toBe(201);
		} finally {
			await call('POST', '/_sandbox/options', { tier: 'selfServe' }, true);
		}
		expect((await reply('A self-serve reply', post.id)).status).toBe(403);
	});
});

describe('duplicate text', () => {
	it('refuses a second post with the same text (403, type about:blank), takes other text', async () => {
		expect((await call('POST', '/2/tweets', { text: 'Only once' })).status).toBe(201);
		const again = await call('POST', '/2/tweets', { text: 'Only once' });
		expect(again.status).toBe(403);
		expect(again.body).toMatchObject({ type: 'about:blank', title: 'Forbidden' });
		expect((await call('POST', '/2/tweets', { text: 'Only once, and more' })).status).toBe(201);
	});
});

describe('fault injection: skip', () => {
	it('answers the first matching requests normally and the next with the fault', async () => {
		await call(
			'POST',
			'/_sandbox/faults',
			{ rules: [{ status: 503, count: 1, method: 'POST', path: '^/2/tweets$', skip: 2 }] },
			true,
		);
		const statuses = [];
		for (const text of ['skip one', 'skip two', 'skip three', 'skip four'])
			statuses.push((await call('POST', '/2/tweets', { text })).status);
		expect(statuses).toEqual([201, 201, 503, 201]);
	});
});
