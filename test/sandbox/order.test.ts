/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
/**
 * The sandbox behaves like the service where the Poll Trigger's position depends on it: followers,
 * followed accounts, liked posts, bookmarks, list members and list followers come newest first by
 * when each was added (one removed and added again is back on top, whatever its id); a creator's
 * Spaces come in no promised order; an endpoint with a rate-limit window refuses the request past its
 * limit with 429 and the window's reset.
 */
import { sleep } from 'n8n-workflow';

const { createSandbox } = require('../../sandbox/server');

type Violation = { rule: string; message: string };
type Sandbox = {
	url: string;
	keys: Record<string, string>;
	seededListId: string;
	db: { users: Map<string, Record<string, unknown>> };
	records: Array<{ path: string; status: number; answerViolations?: Violation[] }>;
	publishPost(input: { text: string; author_id?: string }): { id: string };
	idTime(id: string): number;
	close(): Promise<void>;
};

let sb: Sandbox;
beforeAll(async () => {
	sb = await createSandbox({ quiet: true }).listen(0);
});
afterAll(async () => await sb.close());

async function call(
	method: string,
	path: string,
	{ body, token }: { body?: unknown; token?: string } = {},
) {
	const headers: Record<string, string> = {};
	if (token) headers.authorization = `Bearer ${token}`;
	if (body !== undefined) headers['content-type'] = 'application/json';
	const res = await fetch(sb.url + path, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	return {
		status: res.status,
		headers: res.headers,
		body: (text ? JSON.parse(text) : undefined) as Record<string, unknown>,
	};
}
const app = () => sb.keys.bearerToken;
const user = () => sb.keys.oauth2UserToken;
const ids = (body: Record<string, unknown>) =>
	((body.data as Array<{ id: string }> | undefined) ?? []).map((x) => x.id);

async function control(method: string, path: string, body?: unknown) {
	const r = await call(method, path, { body });
	expect(r.status).toBeLessThan(300);
	return r.body;
}

// Ids that do not sort the way they were added: an answer ordered by id gives another order.
const HIGH = '1400000000000000009';
const MID = '1400000000000000005';
const LOW = '1400000000000000001';
const WATCHED = '1400000000000000100';

/** `who` does `kind` to `target` through the control API (undoes it with `on` false). */
const relate =
	(kind: string, target: string) =>
	(who: string, on = true) =>
		control(on ? 'POST' : 'DELETE', '/_sandbox/relations', {
			kind,
			user_id: who,
			target_id: target,
		});

describe('lists the Poll Trigger reads: newest first by when each was added', () => {
	beforeAll(() => {
		// Into the store directly: the reads through the API below then fail on their order alone
		// where the sandbox ordered by id.
		for (const [id, username] of [
			[HIGH, 'high_id'],
			[MID, 'mid_id'],
			[LOW, 'low_id'],
			[WATCHED, 'watched'],
		])
			sb.db.users.set(id, { id, username, name: username });
	});

	it('followers: an unfollow and a follow again put the follower on top', async () => {
		const follow = relate('follow', WATCHED);
		await follow(LOW);
		await follow(HIGH);
		await follow(MID);
		const read = async () =>
			ids((await call('GET', `/2/users/${WATCHED}/followers`, { token: app() })).body);
		expect(await read()).toEqual([MID, HIGH, LOW]);
		// Following again while following changes nothing.
		await follow(LOW);
		expect(await read()).toEqual([MID, HIGH, LOW]);
		await follow(LOW, false);
		expect(await read()).toEqual([MID, HIGH]);
		await follow(LOW);
		expect(await read()).toEqual([LOW, MID, HIGH]);
		// Pages follow the same order.
		const first = await call('GET', `/2/users/${WATCHED}/followers?max_results=2`, {
			token: app(),
		});
		expect(ids(first.body)).toEqual([LOW, MID]);
		const token = (first.body.meta as { next_token: string }).next_token;
		const second = await call(
			'GET',
			`/2/users/${WATCHED}/followers?max_results=2&pagination_token=${token}`,
			{ token: app() },
		);
		expect(ids(second.body)).toEqual([HIGH]);
	});

	it('following, through the API: unfollowed and followed again, the account is on top', async () => {
		const me = sb.keys.userId;
		const follow = (target: string) =>
			call('POST', `/2/users/${me}/following`, {
				token: user(),
				body: { target_user_id: target },
			});
		for (const target of [HIGH, LOW, MID]) expect((await follow(target)).status).toBe(200);
		const read = async () =>
			ids((await call('GET', `/2/users/${me}/following`, { token: app() })).body).filter((id) =>
				[HIGH, MID, LOW].includes(id),
			);
		expect(await read()).toEqual([MID, LOW, HIGH]);
		expect(
			(await call('DELETE', `/2/users/${me}/following/${HIGH}`, { token: user() })).status,
		).toBe(200);
		expect(await read()).toEqual([MID, LOW]);
		await follow(HIGH);
		expect(await read()).toEqual([HIGH, MID, LOW]);
	});

	it.each([
		['liked_tweets', 'likes'],
		['bookmarks', 'bookmarks'],
	])('%s, through the API: unliked and liked again, the post is on top', async (read, route) => {
		const me = sb.keys.userId;
		const posts = ['one', 'two', 'three'].map((t) => sb.publishPost({ text: `${route} ${t}` }).id);
		// Made in another order than the posts' ids.
		for (const id of [posts[1], posts[0], posts[2]])
			expect(
				(await call('POST', `/2/users/${me}/${route}`, { token: user(), body: { tweet_id: id } }))
					.status,
			).toBe(200);
		const list = async () =>
			ids((await call('GET', `/2/users/${me}/${read}`, { token: user() })).body);
		expect(await list()).toEqual([posts[2], posts[0], posts[1]]);
		expect(
			(await call('DELETE', `/2/users/${me}/${route}/${posts[1]}`, { token: user() })).status,
		).toBe(200);
		expect(await list()).toEqual([posts[2], posts[0]]);
		await call('POST', `/2/users/${me}/${route}`, { token: user(), body: { tweet_id: posts[1] } });
		expect(await list()).toEqual([posts[1], posts[2], posts[0]]);
	});

	it('a like made through the control API counts as one through the API does', async () => {
		const post = sb.publishPost({ text: 'liked by someone else' }).id;
		await control('POST', '/_sandbox/relations', { kind: 'like', user_id: HIGH, target_id: post });
		expect(
			ids((await call('GET', `/2/users/${HIGH}/liked_tweets`, { token: user() })).body),
		).toEqual([post]);
		const liking = await call('GET', `/2/tweets/${post}/liking_users`, { token: user() });
		expect(ids(liking.body)).toEqual([HIGH]);
		const read = await call('GET', `/2/tweets/${post}?tweet.fields=public_metrics`, {
			token: app(),
		});
		expect(
			(read.body.data as { public_metrics: { like_count: number } }).public_metrics.like_count,
		).toBe(1);
	});

	it('list members, through the API: removed and added again, the member is on top', async () => {
		const list = sb.seededListId;
		const add = (id: string) =>
			call('POST', `/2/lists/${list}/members`, { token: user(), body: { user_id: id } });
		for (const id of [LOW, HIGH]) expect((await add(id)).status).toBe(200);
		const read = async () =>
			ids((await call('GET', `/2/lists/${list}/members`, { token: app() })).body);
		expect(await read()).toEqual([HIGH, LOW, '1000000002']);
		expect(
			(await call('DELETE', `/2/lists/${list}/members/${LOW}`, { token: user() })).status,
		).toBe(200);
		await add(LOW);
		expect(await read()).toEqual([LOW, HIGH, '1000000002']);
	});

	it('list followers: unfollowed and followed again, the follower is on top', async () => {
		const made = await control('POST', '/_sandbox/lists', { name: 'Watched', members: [HIGH] });
		const list = (made.data as { id: string }).id;
		const follow = relate('list_follower', list);
		await follow(LOW);
		await follow(HIGH);
		await follow(LOW, false);
		await follow(LOW);
		expect(ids((await call('GET', `/2/lists/${list}/followers`, { token: app() })).body)).toEqual([
			LOW,
			HIGH,
		]);
	});

	it('the control API adds an account, and refuses an unknown kind, user or post', async () => {
		const added = await control('POST', '/_sandbox/users', { username: 'newcomer' });
		const id = (added.data as { id: string }).id;
		const read = await call('GET', `/2/users/${id}`, { token: app() });
		expect(read.body.data).toEqual({ id, name: 'newcomer', username: 'newcomer' });
		expect((await call('POST', '/_sandbox/relations', { body: { kind: 'block' } })).status).toBe(
			400,
		);
		expect(
			(
				await call('POST', '/_sandbox/relations', {
					body: { kind: 'follow', user_id: '1999999999999999990', target_id: WATCHED },
				})
			).status,
		).toBe(404);
		expect(
			(
				await call('POST', '/_sandbox/relations', {
					body: { kind: 'like', user_id: HIGH, target_id: '1999999999999999990' },
				})
			).status,
		).toBe(404);
	});

	it('every answer above conforms to the contract', () => {
		const broken = sb.records.filter((r) => r.answerViolations?.length);
		expect(broken.map((r) => `${r.path} ${r.status}`)).toEqual([]);
	});
});

describe('a creator’s Spaces: no promised order', () => {
	it('answers neither newest nor oldest first by creation', async () => {
		const creator = '1400000000000000200';
		await control('POST', '/_sandbox/users', { id: creator, username: 'space_host' });
		const made: string[] = [];
		for (const [i, state] of ['live', 'scheduled', 'live', 'scheduled'].entries()) {
			const body = await control('POST', '/_sandbox/spaces', {
				creator_id: creator,
				state,
				created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
			});
			made.push((body.data as { id: string }).id);
		}
		const r = await call('GET', `/2/spaces/by/creator_ids?user_ids=${creator}`, { token: app() });
		expect(r.status).toBe(200);
		const answered = ids(r.body);
		expect([...answered].sort()).toEqual([...made].sort());
		const newestFirst = [...made].reverse();
		expect(answered).not.toEqual(newestFirst);
		expect(answered).not.toEqual(made);
		// Two: not newest first either.
		const other = '1400000000000000201';
		await control('POST', '/_sandbox/users', { id: other, username: 'space_host2' });
		const a = (await control('POST', '/_sandbox/spaces', { creator_id: other })).data as {
			id: string;
		};
		const b = (
			await control('POST', '/_sandbox/spaces', {
				creator_id: other,
				created_at: new Date(Date.now() + 60000).toISOString(),
			})
		).data as { id: string };
		const two = await call('GET', `/2/spaces/by/creator_ids?user_ids=${other}`, { token: app() });
		expect(ids(two.body)).toEqual([a.id, b.id]);
		expect(sb.records.filter((x) => x.answerViolations?.length)).toEqual([]);
	});
});

describe('per-endpoint rate limits', () => {
	const me = () => sb.keys.userId;
	afterEach(async () => {
		await control('POST', '/_sandbox/options', { rateLimits: [] });
	});

	it('refuses the call past the limit with 429 and the window’s reset, per caller and endpoint', async () => {
		await control('POST', '/_sandbox/options', {
			rateLimits: [{ method: 'GET', path: '^/2/users/[0-9]+/followers$', limit: 3, windowS: 900 }],
		});
		const before = Math.floor(Date.now() / 1000);
		const seen: Array<[number, string | null]> = [];
		for (let i = 0; i < 3; i++) {
			const r = await call('GET', `/2/users/${me()}/followers`, { token: app() });
			seen.push([r.status, r.headers.get('x-rate-limit-remaining')]);
		}
		expect(seen).toEqual([
			[200, '2'],
			[200, '1'],
			[200, '0'],
		]);
		const refused = await call('GET', `/2/users/${me()}/followers`, { token: app() });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('x-rate-limit-limit')).toBe('3');
		expect(refused.headers.get('x-rate-limit-remaining')).toBe('0');
		const reset = Number(refused.headers.get('x-rate-limit-reset'));
		expect(reset).toBeGreaterThanOrEqual(before + 899);
		expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 900);
		expect(refused.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
		// Another endpoint, and another caller (the user token), have windows of their own.
		expect((await call('GET', `/2/users/${me()}/following`, { token: app() })).status).toBe(200);
		expect((await call('GET', `/2/users/${me()}/followers`, { token: user() })).status).toBe(200);
		const last = sb.records.filter((r) => r.status === 429).pop();
		expect(last?.answerViolations).toBeUndefined();
	});

	it('answers again once the window has reset', async () => {
		await control('POST', '/_sandbox/options', {
			rateLimits: [{ path: '^/2/lists/[0-9]+/members$', limit: 1, windowS: 1 }],
		});
		const read = () => call('GET', `/2/lists/${sb.seededListId}/members`, { token: app() });
		expect((await read()).status).toBe(200);
		const refused = await read();
		expect(refused.status).toBe(429);
		const waitMs = Number(refused.headers.get('x-rate-limit-reset')) * 1000 - Date.now();
		await sleep(Math.max(0, waitMs) + 50);
		expect((await read()).status).toBe(200);
	});

	it('refuses rules that are not rules', async () => {
		const r = await call('POST', '/_sandbox/options', {
			body: { rateLimits: [{ path: '^/2/users', limit: 0, windowS: 900 }] },
		});
		expect(r.status).toBe(400);
		expect(() => createSandbox({ rateLimits: [{ path: '(', limit: 1, windowS: 1 }] })).toThrow(
			/rateLimits\[0\]\.path/,
		);
	});
});

describe('recent search: the last 7 days', () => {
	const DAY = 86_400_000;
	/** An id made at `ms`, as the service's ids hold their time (milliseconds since its epoch, times 2^22). */
	const idAt = (ms: number) => String(BigInt(ms - 1288834974657) * BigInt(4194304));
	const search = (qs: string) =>
		call('GET', `/2/tweets/search/recent?query=window&max_results=10&${qs}`, { token: app() });

	it('refuses a since_id and a start_time older than 7 days, and takes them inside', async () => {
		const post = sb.publishPost({ text: 'window check' });
		const old = await search(`since_id=${idAt(Date.now() - 8 * DAY)}`);
		expect(old.status).toBe(400);
		expect(JSON.stringify(old.body)).toContain('since_id');
		const early = await search(
			`start_time=${new Date(Date.now() - 8 * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
		);
		expect(early.status).toBe(400);
		expect(JSON.stringify(early.body)).toContain('start_time');
		const inside = await search(`since_id=${idAt(Date.now() - 6 * DAY)}`);
		expect(inside.status).toBe(200);
		expect(ids(inside.body)).toContain(post.id);
	});

	it('applies start_time (inclusive) and end_time (exclusive), to the second', async () => {
		const post = sb.publishPost({ text: 'window bounds' });
		const at = Math.floor(sb.idTime(post.id) / 1000) * 1000;
		const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
		const q = (qs: string) =>
			call('GET', `/2/tweets/search/recent?query=bounds&max_results=10&${qs}`, { token: app() });
		expect(ids((await q(`start_time=${iso(at)}`)).body)).toContain(post.id);
		expect(ids((await q(`start_time=${iso(at + 1000)}`)).body)).not.toContain(post.id);
		expect(ids((await q(`end_time=${iso(at + 1000)}`)).body)).toContain(post.id);
		expect(ids((await q(`end_time=${iso(at)}`)).body)).not.toContain(post.id);
	});
});

describe('injected faults answer in the service’s shapes', () => {
	afterEach(async () => await control('DELETE', '/_sandbox/faults'));

	it.each([429, 503])('platform API %i: a Problem, as application/problem+json', async (status) => {
		await control('POST', '/_sandbox/faults', {
			rules: [{ status, count: 1, path: '^/2/users/me$' }],
		});
		const r = await call('GET', '/2/users/me', { token: user() });
		expect(r.status).toBe(status);
		expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
		expect(r.body).toMatchObject({ status, type: 'about:blank' });
		expect(typeof r.body.title).toBe('string');
	});

	it.each([429, 503])(
		'advertising interface %i: its errors[] shape, not a Problem',
		async (status) => {
			await control('POST', '/_sandbox/faults', {
				rules: [{ status, count: 1, path: '^/12/accounts$' }],
			});
			const r = await call('GET', '/12/accounts', { token: user() });
			expect(r.status).toBe(status);
			expect(r.headers.get('content-type')).not.toMatch(/problem\+json/);
			const errors = r.body.errors as Array<{ code: string; message: string }>;
			expect(errors[0].code).toBe(status === 429 ? 'TOO_MANY_REQUESTS' : 'SERVICE_UNAVAILABLE');
			expect(r.body.type).toBeUndefined();
		},
	);
});
