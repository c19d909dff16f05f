/**
 * The Poll Trigger's read requests, as the service sees them: the query each mode sends, the size
 * each page asks for (max_results within the endpoint's bounds, which the stand-in enforces), the
 * 50-page guard, and a page that gets no answer before n8n's poll time ends.
 *
 * Wire values from the contract (shared/spec/openapi.json): `exclude` is a comma-separated list
 * (style form, explode false) of `replies` and `retweets`; `event_types` of GET /2/dm_events takes
 * `MessageCreate`, `ParticipantsJoin`, `ParticipantsLeave`; followers take max_results 1 to 1000 and
 * neither since_id nor until_id; a user's posts take max_results 5 to 100.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE } from '../helpers/context';
import type { Served, Watched } from './helpers';
import {
	ids,
	nextId,
	pollContext,
	serve,
	serveDirectMessages,
	USER_42,
	USER_42_FOLLOWERS,
	USER_42_FOLLOWERS_READ,
	USER_42_POSTS,
	USER_42_POSTS_READ,
	watch,
} from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});
afterAll(() => nock.enableNetConnect());

/** A simulated clock for the node (Date.now), moved by hand. */
function clock() {
	let now = Date.now();
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	return {
		now: () => now,
		set: (ms: number) => (now = ms),
		advance: (ms: number) => (now += ms),
	};
}

const FOLLOWERS: Watched = {
	parameters: USER_42_FOLLOWERS,
	read: USER_42_FOLLOWERS_READ,
	entry: (id) => ({ id, name: 'u', username: `u${id}` }),
	eventId: (id) => `follow:${id}:${USER_42}`,
};

/** User 42's followers (newest follow first), watched by a node of `version`; `add` returns event ids. */
function followers(version: number, pageLimit = 100) {
	const w = watch(FOLLOWERS, version, pageLimit);
	return { ...w, add: (n: number) => w.add(n).map(FOLLOWERS.eventId) };
}

describe('Poll Trigger read requests: the query each mode sends', () => {
	it.each([
		['replies and reposts included: no exclude', {}, undefined],
		['replies left out', { includeReplies: false }, 'replies'],
		[
			'replies and reposts left out: both, comma-separated',
			{ includeReplies: false, includeReposts: false },
			'replies,retweets',
		],
	])("a user's posts, %s", async (_name, parameters, exclude) => {
		const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
		serve(USER_42_POSTS_READ, served);
		const staticData: IDataObject = {};
		const run = () =>
			poll.call(pollContext({ ...USER_42_POSTS, ...parameters }, staticData).context);
		const old = nextId();
		served.entries.push({ id: old, text: 'old', author_id: USER_42 });
		expect(await run()).toBeNull();
		const fresh = nextId();
		served.entries.push({ id: fresh, text: 'new', author_id: USER_42 });
		expect(ids(await run())).toEqual([fresh]);
		expect(served.queries).toHaveLength(2);
		for (const q of served.queries) {
			expect(q.exclude).toBe(exclude);
			expect('exclude' in q).toBe(exclude !== undefined);
			expect('until_id' in q).toBe(false);
			expect('start_time' in q).toBe(false);
		}
		// The first poll asks for where the list stands; the next from there on (since_id).
		expect('since_id' in served.queries[0]).toBe(false);
		expect(served.queries[1].since_id).toBe(old);
	});

	it('followers: no since_id, until_id, start_time, exclude or event_types (the endpoint takes none)', async () => {
		const f = followers(1);
		f.add(3);
		expect((await f.run()).ids).toEqual([]);
		const added = f.add(2);
		expect((await f.run()).ids).toEqual(added);
		expect(f.served.queries).toHaveLength(2);
		for (const q of f.served.queries)
			for (const key of ['since_id', 'until_id', 'start_time', 'exclude', 'event_types'])
				expect(key in q).toBe(false);
	});

	describe('direct messages (version 1.1): event_types only where set', () => {
		const ME = '7';
		let queries: Array<Record<string, string>>;
		// No messages: every request is answered with none.
		beforeEach(() => (queries = serveDirectMessages(ME, [])));
		const run = (parameters: IDataObject) =>
			poll.call(
				pollContext(
					{ event: 'directMessages', authentication: CREDENTIAL_TYPES.pkce, ...parameters },
					{},
					'trigger',
					{},
					1.1,
				).context,
			);

		it('messages only (the default): event_types=MessageCreate', async () => {
			expect(await run({})).toBeNull();
			expect(queries.length).toBeGreaterThan(0);
			for (const q of queries) expect(q.event_types).toBe('MessageCreate');
		});

		it('with Include Joins and Leaves: no event_types at all (every kind)', async () => {
			expect(await run({ joinsAndLeaves: true })).toBeNull();
			expect(queries.length).toBeGreaterThan(0);
			for (const q of queries) expect('event_types' in q).toBe(false);
		});
	});
});

describe('Poll Trigger read requests: the size each page asks for', () => {
	it('a burst of 15 new followers over 20 remembered (version 1): a first page of 10, then what Max Items leaves (90), not a page of 10', async () => {
		const f = followers(1);
		f.add(20);
		expect((await f.run()).ids).toEqual([]);
		const added = f.add(15);
		const from = f.served.queries.length;
		expect((await f.run()).ids).toEqual(added);
		expect(f.sizes(from)).toEqual([10, 90]);
	});

	it.each([
		// A window of fewer than 10 remembered ids is a short list: read to its end, never cut to a run.
		[3, [10, 98]],
		[9, [10, 98]],
		// 10 remembered: a run of 10 may end the read, so the page after 2 of them asks for the other 8.
		[10, [10, 8]],
	])(
		'%s followers remembered, 2 new, the service answering 4 a page: the pages ask %j',
		async (remembered, expected) => {
			const f = followers(1, 4);
			f.add(remembered);
			expect((await f.run()).ids).toEqual([]);
			const added = f.add(2);
			const from = f.served.queries.length;
			expect((await f.run()).ids).toEqual(added);
			expect(f.sizes(from).slice(0, 2)).toEqual(expected);
		},
	);

	it('Max Items 3, 2 new followers over 20 remembered: no page asks for more than Max Items leaves', async () => {
		const f = followers(1);
		f.add(20);
		expect((await f.run({ maxItems: 3 })).ids).toEqual([]);
		const added = f.add(2);
		const from = f.served.queries.length;
		expect((await f.run({ maxItems: 3 })).ids).toEqual(added);
		const sizes = f.sizes(from);
		expect(sizes[0]).toBe(3);
		// Two were emitted: each later page asks for the one Max Items leaves.
		expect(sizes.slice(1).every((s) => s === 1)).toBe(true);
		expect(sizes.length).toBeGreaterThan(1);
	});

	it('version 1.2, 3 followers remembered and 1 new: the idle page of 2, then a page of 10 (not the rest of Max Items)', async () => {
		const f = followers(1.2);
		f.add(3);
		expect((await f.run()).ids).toEqual([]);
		const added = f.add(1);
		const from = f.served.queries.length;
		expect((await f.run()).ids).toEqual(added);
		expect(f.sizes(from)).toEqual([2, 10]);
	});

	it('version 1.2, 5 remembered and 20 new, the service answering 5 a page: 2, then 10, then what Max Items leaves', async () => {
		const f = followers(1.2, 5);
		f.add(5);
		expect((await f.run()).ids).toEqual([]);
		const added = f.add(20);
		const from = f.served.queries.length;
		expect((await f.run()).ids).toEqual(added);
		expect(f.sizes(from).slice(0, 3)).toEqual([2, 10, 93]);
	});

	it('version 1.2, Max Items 5, 5 remembered and 3 new: the page after the idle page asks for the 3 Max Items leaves', async () => {
		const f = followers(1.2);
		f.add(5);
		expect((await f.run({ maxItems: 5 })).ids).toEqual([]);
		const added = f.add(3);
		const from = f.served.queries.length;
		expect((await f.run({ maxItems: 5 })).ids).toEqual(added);
		expect(f.sizes(from).slice(0, 2)).toEqual([2, 3]);
	});

	it('after a poll cut short, a page that has not yet passed the place it stopped at asks for what Max Items leaves, not what completes a run', async () => {
		const f = followers(1, 5);
		f.add(20);
		expect((await f.run()).ids).toEqual([]);
		const first = f.add(8);
		// A budget of 0: the read stops after its first page (5 of the 8).
		f.setBudget(0);
		const cut = (await f.run()).ids;
		// Emitted oldest first: the newest 5.
		expect(cut).toEqual(first.slice(3));
		f.setBudget(undefined);
		const more = f.add(3);
		const from = f.served.queries.length;
		const rest = (await f.run()).ids;
		expect(rest).toEqual([...first.slice(0, 3), ...more]);
		// First page: [3 new, 2 of the cut place]; the cut place is not passed yet.
		expect(f.sizes(from).slice(0, 2)).toEqual([100, 97]);
	});
});

describe('Poll Trigger read requests: Max Items below the stop run (found here, not fixed)', () => {
	// Known issue: with Max Items under 10, the pages after the first ask for what Max Items leaves,
	// though remembered ids do not count against it, so the run of 10 that ends a read takes several
	// requests: (3, 3, 3, 1) for an idle poll of version 1, 11 requests for 2 new
	// followers in version 1.2; followers allow 15 requests per 15 minutes. it.failing: this passes
	// while the issue stands and fails once it is fixed (then make it a plain it).
	it.failing.each([
		['version 1, an idle poll', 1, 0],
		['version 1.2, a poll that finds 2 new followers', 1.2, 2],
	])('Max Items 3, 20 followers remembered, %s: at most 2 requests', async (_n, version, fresh) => {
		const f = followers(version as number);
		f.add(20);
		expect((await f.run({ maxItems: 3 })).ids).toEqual([]);
		const added = f.add(fresh as number);
		const from = f.served.queries.length;
		expect((await f.run({ maxItems: 3 })).ids).toEqual(added);
		expect(f.served.queries.length - from).toBeLessThanOrEqual(2);
	});
});

describe('Poll Trigger read requests: the 50-page guard', () => {
	it('a service that answers one post a page: a poll reads 50 pages, no more', async () => {
		const served: Served = { entries: [], pageLimit: 1, queries: [], order: 'id' };
		serve(USER_42_POSTS_READ, served);
		const staticData: IDataObject = {};
		const run = () => poll.call(pollContext({ ...USER_42_POSTS }, staticData).context);
		served.entries.push({ id: nextId(), text: 'old', author_id: USER_42 });
		expect(await run()).toBeNull();
		for (let i = 0; i < 60; i++)
			served.entries.push({ id: nextId(), text: 'n', author_id: USER_42 });
		const from = served.queries.length;
		const emitted = ids(await run());
		expect(served.queries.length - from).toBe(50);
		expect(emitted).toHaveLength(50);
		expect(new Set(emitted).size).toBe(50);
	});
});

describe('Poll Trigger read requests: a page with no answer', () => {
	/**
	 * Followers (version 1): 20 remembered, 30 new; the service answers 10 a page, and the page with a
	 * pagination_token fails with a reset connection after the clock is moved to `at` ms into the poll.
	 */
	async function cutAt(at: number, budget: number) {
		const time = clock();
		const f = followers(1, 10);
		f.add(20);
		expect((await f.run()).ids).toEqual([]);
		const added = f.add(30);
		f.setBudget(budget);
		const start = time.now();
		nock.cleanAll();
		nock(BASE)
			.get(USER_42_FOLLOWERS_READ.path)
			.query((q) => {
				if (q.pagination_token === undefined) return false;
				time.set(start + at);
				return true;
			})
			.replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
		// The failing page's interceptor first: the service's answers after it.
		serve(USER_42_FOLLOWERS_READ, f.served);
		const outcome = await f.run().then(
			(value) => ({ value, error: undefined }),
			(error: unknown) => ({ value: undefined, error }),
		);
		time.set(start + budget + 60_000);
		return { f, added, outcome };
	}

	it("a second page with no answer when the poll time ends keeps the first page's followers and warns 'page 2 got no answer'; the next poll emits the rest once", async () => {
		const budget = 1000;
		const { f, added, outcome } = await cutAt(budget, budget);
		expect(outcome.error).toBeUndefined();
		// The first page: the newest 10 (emitted oldest first).
		expect(outcome.value!.ids).toEqual(added.slice(20));
		const warnings = outcome.value!.logs.filter((l) => l.level === 'warn').map((l) => l.message);
		expect(warnings.some((m) => m.includes('page 2 got no answer'))).toBe(true);
		f.setBudget(undefined);
		expect((await f.run()).ids).toEqual(added.slice(0, 20));
		expect((await f.run()).ids).toEqual([]);
	});

	it('a second page with no answer while poll time remains fails the poll; the next poll emits every new follower once', async () => {
		const budget = 1000;
		const { f, added, outcome } = await cutAt(budget - 1, budget);
		expect(outcome.error).toBeDefined();
		f.setBudget(undefined);
		expect((await f.run()).ids).toEqual(added);
		expect((await f.run()).ids).toEqual([]);
	});

	it('a first page with no answer fails the poll and keeps the position', async () => {
		const time = clock();
		const f = followers(1, 10);
		f.add(20);
		expect((await f.run()).ids).toEqual([]);
		const added = f.add(3);
		const budget = 1000;
		f.setBudget(budget);
		const start = time.now();
		nock.cleanAll();
		nock(BASE)
			.get(USER_42_FOLLOWERS_READ.path)
			.query(() => {
				time.set(start + budget);
				return true;
			})
			.replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
		serve(USER_42_FOLLOWERS_READ, f.served);
		await expect(f.run()).rejects.toThrow();
		f.setBudget(undefined);
		expect((await f.run()).ids).toEqual(added);
	});

	it('a test fetch (manual) of a slow service stops at half the poll time and shows what it read', async () => {
		const time = clock();
		const served: Served = { entries: [], pageLimit: 2, queries: [], order: 'id' };
		serve(USER_42_POSTS_READ, served);
		for (let i = 0; i < 10; i++)
			served.entries.push({ id: nextId(), text: 'p', author_id: USER_42 });
		// Each answer takes 400 ms of a 600 ms poll time.
		served.delayMs = () => {
			time.advance(400);
			return 0;
		};
		const result = await poll.call(
			pollContext({ ...USER_42_POSTS }, {}, 'manual', { getPollBudgetMs: () => 600 }).context,
		);
		expect(served.queries).toHaveLength(1);
		expect(ids(result)).toHaveLength(2);
	});
});
