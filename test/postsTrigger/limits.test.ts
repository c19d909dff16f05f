/**
 * The Poll Trigger within the service's limits: the 15-minute rate-limit window of each mode's
 * endpoint (polls skipped while it is spent, a read paused when it runs out, polls after a 429 skipped
 * until its reset) and recent search's 7 days (a quiet query's position kept inside them).
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE } from '../helpers/context';
import { outsideSearchWindow, postIdAt, pollContext } from './helpers';

const SEARCH_WINDOW_MS = 7 * 24 * 3_600_000;

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});
afterAll(() => nock.enableNetConnect());

const USER = '42';
const MINUTE = 60_000;

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

/** A simulated clock for the node (Date.now), a minute between polls. */
function clock(start = Date.now()) {
	let now = start;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	return {
		now: () => now,
		advance: (ms: number) => (now += ms),
	};
}

/**
 * A user's followers (newest first; or another list the user has, at `suffix`) behind a rate-limit
 * window of `limit` requests per 15 minutes, stated in the headers (or not, `headers: false`) and
 * enforced with a 429 beyond it.
 */
function followers(
	limit: number,
	time: { now: () => number },
	headers = true,
	suffix = 'followers',
) {
	const list: string[] = [];
	let window: { start: number; used: number } | undefined;
	const seen = { requests: 0, refused: 0, sizes: [] as number[] };
	nock(BASE)
		.persist()
		.get(`/2/users/${USER}/${suffix}`)
		.query(true)
		.reply((uri) => {
			const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
			seen.requests++;
			const now = time.now();
			if (!window || now >= window.start + 15 * MINUTE) window = { start: now, used: 0 };
			const reset = String(Math.ceil((window.start + 15 * MINUTE) / 1000));
			if (window.used >= limit) {
				seen.refused++;
				return [
					429,
					{ title: 'Too Many Requests', type: 'about:blank', status: 429 },
					{ 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset },
				];
			}
			window.used++;
			const size = Number(q.max_results);
			seen.sizes.push(size);
			const start = Number(q.pagination_token ?? 0);
			const newestFirst = [...list].reverse();
			const page = newestFirst.slice(start, start + size);
			const meta: IDataObject = { result_count: page.length };
			if (start + size < newestFirst.length) meta.next_token = String(start + size);
			return [
				200,
				{ data: page.map((id) => ({ id, username: `u${id}` })), meta },
				headers
					? {
							'x-rate-limit-limit': String(limit),
							'x-rate-limit-remaining': String(limit - window.used),
							'x-rate-limit-reset': reset,
						}
					: {},
			];
		});
	let n = 0;
	const add = (count: number) => {
		const added: string[] = [];
		for (let i = 0; i < count; i++) added.push(String(1000 + ++n));
		list.push(...added);
		return added;
	};
	return { add, seen };
}

describe('Poll Trigger rate limits', () => {
	const parameters = {
		event: 'followers',
		authentication: CREDENTIAL_TYPES.appOnly,
		user: { __rl: true, mode: 'id', value: USER },
	};

	it.each([
		['the headers state the window', true],
		['without headers, counted against the endpoint’s 15 requests per 15 minutes', false],
	])(
		'followers polled every minute for 2 hours: %s; no 429, every new follower emitted once',
		async (_name, headers) => {
			const time = clock();
			const service = followers(15, time, headers);
			const staticData: IDataObject = {};
			service.add(30);
			const emitted: string[] = [];
			const added: string[] = [];
			for (let minute = 0; minute < 120; minute++) {
				// At the last request of each window, a burst of new followers that takes a second page.
				if (minute % 15 === 14) added.push(...service.add(60));
				const result = await poll.call(pollContext(parameters, staticData).context);
				emitted.push(...ids(result));
				time.advance(MINUTE);
			}
			for (let minute = 0; minute < 20; minute++) {
				emitted.push(...ids(await poll.call(pollContext(parameters, staticData).context)));
				time.advance(MINUTE);
			}
			expect(service.seen.refused).toBe(0);
			// Each once; a burst's older page comes with the next window (after the newest, as documented).
			expect(new Set(emitted).size).toBe(emitted.length);
			expect([...emitted].sort()).toEqual(added.map((id) => `follow:${id}:${USER}`).sort());
			// 15 requests at most in any window: 8 windows of 15 minutes in 140 minutes, 10 idle reads each.
			expect(service.seen.requests).toBeLessThanOrEqual(15 * 10);
		},
	);

	it('after a 429, polls send no request until the reset it names, then catch up', async () => {
		const time = clock();
		const service = followers(1, time);
		const staticData: IDataObject = {};
		service.add(3);
		const run = async () => await poll.call(pollContext(parameters, staticData).context);
		expect(await run()).toBeNull();
		time.advance(MINUTE);
		const newer = service.add(2);
		// The window's only request was spent by the first poll: the service refuses the next one.
		staticData.rate = undefined;
		const built = pollContext(parameters, staticData);
		expect(await poll.call(built.context)).toBeNull();
		expect(service.seen.refused).toBe(1);
		for (let minute = 0; minute < 12; minute++) {
			time.advance(MINUTE);
			expect(await run()).toBeNull();
		}
		expect(service.seen.refused).toBe(1);
		expect(service.seen.requests).toBe(2);
		time.advance(3 * MINUTE);
		expect(ids(await run())).toEqual(newer.map((id) => `follow:${id}:${USER}`));
	});

	it('a window spent in one mode does not hold back the node switched to another mode (another endpoint)', async () => {
		const time = clock();
		const followed = followers(1, time);
		const liked = followers(1, time, true, 'liked_tweets');
		followed.add(3);
		liked.add(3);
		const staticData: IDataObject = {};
		expect(await poll.call(pollContext(parameters, staticData).context)).toBeNull();
		expect(followed.seen.requests).toBe(1);
		time.advance(MINUTE);
		const likedPosts = {
			event: 'likedPosts',
			authentication: CREDENTIAL_TYPES.hmac,
			user: { __rl: true, mode: 'id', value: USER },
		};
		expect(await poll.call(pollContext(likedPosts, staticData).context)).toBeNull();
		expect(liked.seen.requests).toBe(1);
	});

	it('an answer that states the requests left but no reset is counted against the mode’s own limit; the poll goes on', async () => {
		const time = clock();
		nock(BASE)
			.persist()
			.get(`/2/users/${USER}/followers`)
			.query(true)
			.reply(() => [
				200,
				{ data: [{ id: '7', username: 'u7' }], meta: { result_count: 1 } },
				{ 'x-rate-limit-remaining': '3' },
			]);
		const staticData: IDataObject = {};
		expect(await poll.call(pollContext(parameters, staticData).context)).toBeNull();
		time.advance(MINUTE);
		expect(await poll.call(pollContext(parameters, staticData).context)).toBeNull();
		expect(staticData.rate).toMatchObject({ mode: 'followers', remaining: 13 });
	});

	it('an answer that names a reset but not the requests left is counted against the mode’s own limit too: the read goes on to its next page', async () => {
		const time = clock();
		let requests = 0;
		nock(BASE)
			.persist()
			.get(`/2/users/${USER}/followers`)
			.query(true)
			.reply((uri) => {
				requests++;
				const next = new URL(uri, BASE).searchParams.get('pagination_token');
				return [
					200,
					next
						? { data: [{ id: '6', username: 'u6' }], meta: { result_count: 1 } }
						: { data: [{ id: '7', username: 'u7' }], meta: { result_count: 1, next_token: 'p2' } },
					{ 'x-rate-limit-reset': String(Math.ceil(time.now() / 1000) + 900) },
				];
			});
		const staticData: IDataObject = {};
		expect(await poll.call(pollContext(parameters, staticData).context)).toBeNull();
		expect(requests).toBe(2);
		expect(staticData.known).toEqual(['7', '6']);
	});

	it('a first poll that needs a second page when the window has no request left records what it read, and the next window emits what is new', async () => {
		// Another workflow on the same account spends the window too: one request left per window here.
		const time = clock();
		const service = followers(1, time, true, 'liked_tweets');
		const staticData: IDataObject = {};
		const liked = {
			event: 'likedPosts',
			authentication: CREDENTIAL_TYPES.hmac,
			user: { __rl: true, mode: 'id', value: USER },
		};
		// More than one page of 100: the first poll remembers 200 ids when it can.
		service.add(150);
		const run = async () => await poll.call(pollContext(liked, staticData).context);
		expect(await run()).toBeNull();
		expect(service.seen.refused).toBe(0);
		const emitted: string[] = [];
		const added: string[] = [];
		for (let window = 0; window < 3; window++) {
			added.push(...service.add(2));
			time.advance(16 * MINUTE);
			emitted.push(...ids(await run()));
		}
		expect(service.seen.refused).toBe(0);
		expect(emitted).toEqual(added.map((id) => `favorite:${USER}:${id}`));
	});
});

describe('Poll Trigger recent search window', () => {
	const parameters = {
		event: 'search',
		authentication: CREDENTIAL_TYPES.appOnly,
		query: 'autumn sale',
	};

	/** Recent search as the service answers it: since_id older than 7 days is refused. */
	function search(time: { now: () => number }, posts: string[], { ignoreStartTime = false } = {}) {
		const queries: Array<Record<string, string>> = [];
		nock(BASE)
			.persist()
			.get('/2/tweets/search/recent')
			.query(true)
			.reply((uri) => {
				const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
				queries.push(q);
				const refused = outsideSearchWindow(q, time.now());
				if (refused) return refused;
				const since = BigInt(q.since_id ?? '0');
				const from =
					q.start_time && !ignoreStartTime ? BigInt(postIdAt(Date.parse(q.start_time))) : BigInt(0);
				const matching = posts
					.filter((id) => BigInt(id) > since && BigInt(id) >= from)
					.sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1));
				// The next_token here is the offset of the next page.
				const offset = Number(q.next_token ?? 0);
				const found = matching.slice(offset, offset + Number(q.max_results));
				const next = offset + found.length < matching.length ? offset + found.length : undefined;
				return [
					200,
					found.length
						? {
								data: found.map((id) => ({ id, text: 'autumn sale' })),
								meta: {
									result_count: found.length,
									...(next !== undefined ? { next_token: String(next) } : {}),
								},
							}
						: { meta: { result_count: 0 } },
				];
			});
		return queries;
	}

	it('a query quiet for more than 7 days keeps polling: its position moves up to the window’s start', async () => {
		const start = Date.now();
		const time = clock(start);
		const first = postIdAt(start - MINUTE);
		const posts = [first];
		const queries = search(time, posts);
		const staticData: IDataObject = {};
		const run = async () => await poll.call(pollContext(parameters, staticData).context);
		expect(await run()).toBeNull();
		expect(staticData.newestId).toBe(first);
		// Eight quiet days (polled now and then), then a match.
		for (let day = 1; day <= 8; day++) {
			time.advance(24 * 60 * MINUTE);
			expect(await run()).toBeNull();
		}
		const match = postIdAt(time.now() - MINUTE);
		posts.push(match);
		expect(ids(await run())).toEqual([match]);
		// Not the since_id kept from eight days ago (refused): the window's start, within the 7 days.
		const last = queries[queries.length - 1];
		expect(last.since_id).toBeUndefined();
		expect(Date.parse(last.start_time)).toBeGreaterThan(time.now() - SEARCH_WINDOW_MS);
		expect(Date.parse(last.start_time)).toBeLessThan(time.now() - SEARCH_WINDOW_MS + 2 * 3_600_000);
		expect(staticData.newestId).toBe(match);
		expect(await run()).toBeNull();
	});

	it('a service that answers older posts too (start_time not applied) gets nothing emitted twice', async () => {
		const start = Date.now();
		const time = clock(start);
		const first = postIdAt(start - MINUTE);
		const posts = [first];
		search(time, posts, { ignoreStartTime: true });
		const staticData: IDataObject = {};
		const run = async () => await poll.call(pollContext(parameters, staticData).context);
		expect(await run()).toBeNull();
		time.advance(8 * 24 * 60 * MINUTE);
		// The first post is answered again: it is not newer than the position, and ends the read.
		expect(await run()).toBeNull();
		const match = postIdAt(time.now() - MINUTE);
		posts.push(match);
		expect(ids(await run())).toEqual([match]);
	});

	it('a service that answers older posts too, over many pages: the read ends at the first post not newer than the position (one request)', async () => {
		const start = Date.now();
		const time = clock(start);
		// 300 older posts, a page of 100 at most: the answer without start_time runs to three more pages.
		const posts = Array.from({ length: 301 }, (_, i) => postIdAt(start - (301 - i) * MINUTE));
		const queries = search(time, posts, { ignoreStartTime: true });
		const staticData: IDataObject = {};
		const run = async () => await poll.call(pollContext(parameters, staticData).context);
		expect(await run()).toBeNull();
		expect(staticData.newestId).toBe(posts[posts.length - 1]);
		time.advance(8 * 24 * 60 * MINUTE);
		const match = postIdAt(time.now() - MINUTE);
		posts.push(match);
		const before = queries.length;
		expect(ids(await run())).toEqual([match]);
		expect(queries.length - before).toBe(1);
	});
});

describe('Poll Trigger billed reads', () => {
	const parameters = {
		event: 'followers',
		authentication: CREDENTIAL_TYPES.appOnly,
		user: { __rl: true, mode: 'id', value: USER },
	};

	it('a poll that finds one new follower asks for the 10 ids of its first page and 1 more, not a full page', async () => {
		const time = clock();
		const service = followers(900, time);
		const staticData: IDataObject = {};
		service.add(50);
		expect(await poll.call(pollContext(parameters, staticData).context)).toBeNull();
		// Idle: one request of 10.
		expect(await poll.call(pollContext(parameters, staticData).context)).toBeNull();
		const [added] = service.add(1);
		const result = await poll.call(pollContext(parameters, staticData).context);
		expect(ids(result)).toEqual([`follow:${added}:${USER}`]);
		// The first poll's window (up to 200 ids), the idle poll, then 10 and 1.
		expect(service.seen.sizes.slice(1)).toEqual([10, 10, 1]);
	});

	it('a list of one follower (version 1.2): the poll that finds five new ones asks for one page of 10, not an idle page of 2 first', async () => {
		const time = clock();
		const service = followers(900, time);
		const staticData: IDataObject = {};
		const run = () => poll.call(pollContext(parameters, staticData, 'trigger', {}, 1.2).context);
		service.add(1);
		expect(await run()).toBeNull();
		const added = service.add(5);
		expect(ids(await run())).toHaveLength(added.length);
		expect(service.seen.sizes.slice(1)).toEqual([10]);
	});
});

describe('Poll Trigger pauses a builder would notice (version 1.2)', () => {
	const parameters = {
		event: 'followers',
		authentication: CREDENTIAL_TYPES.appOnly,
		user: { __rl: true, mode: 'id', value: USER },
	};
	const run = (staticData: IDataObject, version: number) =>
		poll.call(pollContext(parameters, staticData, 'trigger', {}, version).context);
	const nodeError = async (result: Promise<unknown>) =>
		await result.then(
			() => undefined,
			(error: unknown) => error as Error & { description?: string; failure?: IDataObject },
		);

	it('a spent window is reported once, as an error naming the reset, then polls skip quietly and the first after the reset catches up', async () => {
		const time = clock(Date.parse('2026-11-29T10:00:00Z'));
		const service = followers(1, time);
		const staticData: IDataObject = {};
		service.add(3);
		// The first poll records the position and spends the window's only request.
		expect(await run(staticData, 1.2)).toBeNull();
		const newer = service.add(2);
		time.advance(MINUTE);
		const error = await nodeError(run(staticData, 1.2));
		expect(error?.message).toBe(
			'Polls paused until 2026-11-29T10:15:00Z: the service\'s rate-limit window for "New Followers of a User" has no request left',
		);
		expect(error?.description).toMatch(
			/^Nothing is lost: the first poll after 2026-11-29T10:15:00Z/,
		);
		// n8n's durable poll scheduler waits for this reset before its next poll.
		expect(error?.failure).toEqual({
			cause: 'rate-limited',
			resetsAtEpochMs: Date.parse('2026-11-29T10:15:00Z'),
		});
		for (let minute = 0; minute < 12; minute++) {
			time.advance(MINUTE);
			expect(await run(staticData, 1.2)).toBeNull();
		}
		expect(service.seen.requests).toBe(1);
		time.advance(2 * MINUTE);
		expect(ids(await run(staticData, 1.2))).toEqual(newer.map((id) => `follow:${id}:${USER}`));
	});

	it('a 429 whose reset is 5 minutes away or more is reported once; the position is kept', async () => {
		const time = clock(Date.parse('2026-11-29T10:00:00Z'));
		const service = followers(1, time);
		const staticData: IDataObject = {};
		service.add(3);
		expect(await run(staticData, 1.2)).toBeNull();
		const newer = service.add(1);
		// What the node knew of the window is gone (another process, a restart): the service refuses.
		staticData.rate = undefined;
		time.advance(MINUTE);
		const error = await nodeError(run(staticData, 1.2));
		expect(service.seen.refused).toBe(1);
		expect(error?.message).toMatch(/^Polls paused until 2026-11-29T10:15:00Z/);
		time.advance(MINUTE);
		expect(await run(staticData, 1.2)).toBeNull();
		time.advance(13 * MINUTE);
		expect(ids(await run(staticData, 1.2))).toEqual(newer.map((id) => `follow:${id}:${USER}`));
	});

	it('a pause of exactly 5 minutes is reported (5 minutes or more)', async () => {
		const time = clock(Date.parse('2026-11-29T10:00:00Z'));
		const service = followers(1, time);
		const staticData: IDataObject = {};
		service.add(3);
		expect(await run(staticData, 1.2)).toBeNull();
		// The window resets at 10:15; the next poll comes at 10:10.
		time.advance(10 * MINUTE);
		const error = await nodeError(run(staticData, 1.2));
		expect(error?.message).toMatch(/^Polls paused until 2026-11-29T10:15:00Z/);
	});

	it('a pause shorter than 5 minutes, and any pause in versions 1 and 1.1, is only logged', async () => {
		for (const [version, spendAt] of [
			[1.2, 11],
			[1.1, 1],
			[1, 1],
		]) {
			const time = clock(Date.parse('2026-11-29T10:00:00Z'));
			nock.cleanAll();
			const service = followers(1, time);
			const staticData: IDataObject = {};
			service.add(3);
			// The first poll spends the window; the next comes `spendAt` minutes later, with the rest
			// of the window (15 - spendAt minutes) still to wait.
			expect(await run(staticData, version)).toBeNull();
			time.advance(spendAt * MINUTE);
			await expect(run(staticData, version)).resolves.toBeNull();
		}
	});
});
