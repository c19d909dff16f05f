/**
 * The since_id modes' gap and recent search's overlap (poll.ts, sinceIdPoll): a poll cut short by n8n's
 * poll time leaves the posts below its last page unread (the gap), and the next poll reads the gap first
 * (until_id), then what is newer, both within Max Items per Poll. Found untested by mutation testing of
 * poll.ts (bench/results/mutation.md, "poll.ts"). Each drives the real poll() against a timeline served
 * newest first with since_id, until_id and page tokens (offsets), as the contract's user posts and recent
 * search endpoints take them.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll, RECENT_IDS, SEARCH_LAG_MS } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE } from '../helpers/context';
import type { Served } from './helpers';
import { nextId, outsideSearchWindow, pollContext, postIdAt, serve } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
	nock.cleanAll();
	jest.restoreAllMocks();
});
afterAll(() => nock.enableNetConnect());

const USER = '42';
const USER_POSTS = {
	event: 'userPosts',
	authentication: CREDENTIAL_TYPES.appOnly,
	user: { __rl: true, mode: 'id', value: USER },
};
const SEARCH = { event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'sale' };

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

interface Timeline {
	posts: string[];
	/** The most the service puts on a page, whatever max_results asks (so that a read has pages). */
	pageLimit: number;
	queries: Array<Record<string, string>>;
	/** The next answer comes back empty with its next_token (its posts withheld after paging). */
	emptyOnce?: boolean;
	/**
	 * Recent search: it reaches the last 7 days (the contract); a since_id or until_id older than that
	 * is refused, as limits.test.ts's recent search does.
	 */
	searchNow?: () => number;
	/** Which posts the service shows now (recent search's indexing lag); all where not given. */
	visible?: (id: string) => boolean;
	/** The rate-limit window the answers state in their headers (the contract's x-rate-limit-*). */
	rate?: { remaining: number; resetAt: number };
}

function serveTimeline(path: string, tokenParam: string, t: Timeline) {
	nock(BASE)
		.persist()
		.get(path)
		.query(true)
		.reply((uri) => {
			const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
			t.queries.push(q);
			const refused = t.searchNow ? outsideSearchWindow(q, t.searchNow()) : undefined;
			if (refused) return refused;
			let list = t.posts
				.filter((id) => t.visible?.(id) ?? true)
				.sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1));
			if (q.since_id !== undefined) list = list.filter((id) => BigInt(id) > BigInt(q.since_id));
			if (q.until_id !== undefined) list = list.filter((id) => BigInt(id) < BigInt(q.until_id));
			if (q.start_time !== undefined)
				list = list.filter((id) => BigInt(id) >= BigInt(postIdAt(Date.parse(q.start_time))));
			const start = q[tokenParam] ? Number(q[tokenParam]) : 0;
			const size = Math.min(Number(q.max_results), t.pageLimit);
			let page = list.slice(start, start + size);
			if (t.emptyOnce) {
				t.emptyOnce = false;
				page = [];
			}
			const meta: IDataObject = { result_count: page.length };
			if (start + size < list.length) meta.next_token = String(start + size);
			const data = page.map((id) => ({ id, text: `sale ${id}`, author_id: USER }));
			const headers: Record<string, string> = t.rate
				? {
						'x-rate-limit-limit': '900',
						'x-rate-limit-remaining': String(t.rate.remaining),
						'x-rate-limit-reset': String(Math.ceil(t.rate.resetAt / 1000)),
					}
				: {};
			return [200, data.length ? { data, meta } : { meta }, headers];
		});
}

function userPosts() {
	const t: Timeline = { posts: [], pageLimit: 100, queries: [] };
	serveTimeline(`/2/users/${USER}/tweets`, 'pagination_token', t);
	let staticData: IDataObject = {};
	/** The workflow's global static data (the start records of first polls). */
	const global: IDataObject = {};
	let budget: number | undefined;
	let mode: 'trigger' | 'manual' = 'trigger';
	const run = async (parameters: IDataObject = {}) => {
		const built = pollContext({ ...USER_POSTS, ...parameters }, staticData, mode, {
			getPollBudgetMs: () => budget,
			getWorkflowStaticData: (type: string) => (type === 'global' ? global : staticData),
		});
		const result = await poll.call(built.context);
		return { ids: ids(result), logs: built.logs };
	};
	const add = (n: number) => {
		const added = Array.from({ length: n }, () => nextId());
		t.posts.push(...added);
		// Oldest first, as the trigger emits them.
		return added;
	};
	/** n8n's poll time, in ms; a negative one cuts every read short after its first page. */
	const setBudget = (ms: number | undefined) => (budget = ms);
	const asked = () => t.queries.splice(0);
	/** The node's static data as n8n hands it to the next poll (another object: a row, a snapshot). */
	const setNodeData = (data: IDataObject) => (staticData = data);
	const setMode = (m: 'trigger' | 'manual') => (mode = m);
	return {
		t,
		get staticData() {
			return staticData;
		},
		global,
		run,
		add,
		setBudget,
		asked,
		setNodeData,
		setMode,
	};
}

const capWarned = (logs: Array<{ message: string }>) =>
	logs.some((l) => l.message.includes('Max Items per Poll'));

describe('Poll Trigger since_id modes: the gap a poll cut short leaves', () => {
	it('user posts (no indexing lag): each poll asks only what is newer than the newest emitted', async () => {
		const w = userPosts();
		w.add(1);
		await w.run();
		const two = w.add(2);
		expect((await w.run()).ids).toEqual(two);
		w.asked();
		const [next] = w.add(1);
		expect((await w.run()).ids).toEqual([next]);
		// Not read from behind the newest (recent search's overlap): posts read again are billed.
		expect(w.asked().map((q) => q.since_id)).toEqual([two[1]]);
		expect(w.staticData.overlapFrom).toBeUndefined();
	});

	it('the poll after one cut short reads the gap, then what is newer, in the same poll', async () => {
		const w = userPosts();
		w.add(1);
		await w.run();
		w.t.pageLimit = 5;
		const backlog = w.add(7);
		w.setBudget(-2);
		expect((await w.run()).ids).toEqual(backlog.slice(-5));
		w.setBudget(undefined);
		w.t.pageLimit = 100;
		const newer = w.add(3);
		expect((await w.run()).ids).toEqual([...backlog.slice(0, 2), ...newer]);
		expect((await w.run()).ids).toEqual([]);
	});

	it('a gap longer than Max Items per Poll: the poll emits Max Items of it and says that older ones were skipped', async () => {
		const w = userPosts();
		w.add(1);
		await w.run({ maxItems: 5 });
		w.t.pageLimit = 5;
		const backlog = w.add(12);
		w.setBudget(-2);
		expect((await w.run()).ids).toEqual(backlog.slice(-5));
		w.setBudget(undefined);
		const capped = await w.run({ maxItems: 5 });
		expect(capped.ids).toEqual(backlog.slice(2, 7));
		expect(capWarned(capped.logs)).toBe(true);
		expect(w.staticData.gap).toBeUndefined();
	});

	it('the gap and what is newer together stay within Max Items per Poll', async () => {
		const w = userPosts();
		w.add(1);
		await w.run({ maxItems: 5 });
		w.t.pageLimit = 5;
		const backlog = w.add(7);
		w.setBudget(-2);
		expect((await w.run()).ids).toEqual(backlog.slice(-5));
		w.setBudget(undefined);
		const newer = w.add(5);
		const got = await w.run({ maxItems: 5 });
		// The gap's 2, then the newest 3 of what is newer; the 2 below them are skipped (the cap).
		expect(got.ids).toEqual([...backlog.slice(0, 2), ...newer.slice(-3)]);
		expect(capWarned(got.logs)).toBe(true);
		expect((await w.run({ maxItems: 5 })).ids).toEqual([]);
	});

	it('a gap of exactly Max Items per Poll: that poll reads nothing newer (one request, no cap warning); the next one does', async () => {
		const w = userPosts();
		w.add(1);
		await w.run({ maxItems: 5 });
		w.t.pageLimit = 5;
		const backlog = w.add(10);
		w.setBudget(-2);
		expect((await w.run()).ids).toEqual(backlog.slice(-5));
		w.setBudget(undefined);
		w.t.pageLimit = 100;
		const newer = w.add(2);
		w.asked();
		const gap = await w.run({ maxItems: 5 });
		expect(gap.ids).toEqual(backlog.slice(0, 5));
		expect(w.asked()).toHaveLength(1);
		expect(capWarned(gap.logs)).toBe(false);
		expect((await w.run({ maxItems: 5 })).ids).toEqual(newer);
	});

	it('a gap read cut short again on a page the service emptied keeps the gap: nothing above it is emitted twice', async () => {
		const w = userPosts();
		w.add(1);
		await w.run();
		w.t.pageLimit = 5;
		const backlog = w.add(12);
		w.setBudget(-2);
		expect((await w.run()).ids).toEqual(backlog.slice(-5));
		// The gap's first page comes back empty (withheld after paging) with a next_token; the time ends.
		w.t.emptyOnce = true;
		expect((await w.run()).ids).toEqual([]);
		w.setBudget(undefined);
		w.t.pageLimit = 100;
		const rest = await w.run();
		expect(rest.ids).toEqual(backlog.slice(0, 7));
		expect((await w.run()).ids).toEqual([]);
	});
});

/** Recent search on a clock of its own: posts made at a time, shown when `indexed` says. */
function recentSearch() {
	const clock = { now: Date.now() };
	jest.spyOn(Date, 'now').mockImplementation(() => clock.now);
	const hidden = new Set<string>();
	const t: Timeline = {
		posts: [],
		pageLimit: 100,
		queries: [],
		searchNow: () => clock.now,
		visible: (id) => !hidden.has(id),
	};
	serveTimeline('/2/tweets/search/recent', 'next_token', t);
	let staticData: IDataObject = {};
	const global: IDataObject = {};
	let budget: number | undefined;
	const run = async (parameters: IDataObject = {}) => {
		const built = pollContext({ ...SEARCH, ...parameters }, staticData, 'trigger', {
			getPollBudgetMs: () => budget,
			getWorkflowStaticData: (type: string) => (type === 'global' ? global : staticData),
		});
		return { ids: ids(await poll.call(built.context)), logs: built.logs };
	};
	let n = 0;
	/** A post made at `ms` (its id the smallest of that millisecond plus `seq`), shown at once or not. */
	const at = (ms: number, shown = true, seq = n++) => {
		const id = (BigInt(postIdAt(ms)) + BigInt(seq)).toString();
		t.posts.push(id);
		if (!shown) hidden.add(id);
		return id;
	};
	const show = (id: string) => hidden.delete(id);
	const setBudget = (ms: number | undefined) => (budget = ms);
	const setNodeData = (data: IDataObject) => (staticData = data);
	return {
		t,
		clock,
		get staticData() {
			return staticData;
		},
		run,
		at,
		show,
		setBudget,
		setNodeData,
	};
}

describe('Poll Trigger recent search: a gap older than the 7 days it reaches', () => {
	it('is skipped with a warning, and the poll reads what is newer', async () => {
		const { t, clock, staticData, run, at, setBudget } = recentSearch();
		const now = clock.now;
		at(now - 600_000);
		expect((await run()).ids).toEqual([]);
		const backlog = Array.from({ length: 15 }, (_, i) => at(now - 60_000 + i * 1_000));
		t.pageLimit = 10;
		setBudget(-2);
		expect((await run()).ids).toEqual(backlog.slice(-10));
		expect(staticData.gap).toBeDefined();
		setBudget(undefined);
		t.pageLimit = 100;
		clock.now += 8 * 24 * 3_600_000;
		const fresh = at(clock.now - 60_000);
		const later = await run();
		expect(later.ids).toEqual([fresh]);
		expect(later.logs.some((l) => l.message.includes('older than recent search reaches'))).toBe(
			true,
		);
		expect(staticData.gap).toBeUndefined();
	});
});

describe('Poll Trigger recent search: the overlap behind the newest post (indexing lag)', () => {
	it('reaches a post made SEARCH_LAG_MS before the newest emitted, and remembers only the ids emitted within it', async () => {
		const { clock, staticData, run, at, show } = recentSearch();
		const now = clock.now;
		at(now - 20 * 60_000);
		expect((await run()).ids).toEqual([]);
		const older = at(now - 8 * 60_000);
		const newest = at(now - 30_000, true, 0);
		// Made exactly SEARCH_LAG_MS before the newest (the smallest id of that millisecond), indexed late.
		const late = at(now - 30_000 - SEARCH_LAG_MS, false, 0);
		expect((await run()).ids).toEqual([older, newest]);
		// The older post is below the overlap: no read answers it again, so it is not remembered.
		expect(staticData.recent).toEqual([newest]);
		show(late);
		expect((await run()).ids).toEqual([late]);
		expect((await run()).ids).toEqual([]);
	});

	it(`exactly RECENT_IDS (${RECENT_IDS}) posts emitted within the overlap: all remembered, none emitted again`, async () => {
		const { clock, staticData, run, at } = recentSearch();
		const now = clock.now;
		at(now - 20 * 60_000);
		expect((await run({ maxItems: 1000 })).ids).toEqual([]);
		const made = Array.from({ length: RECENT_IDS }, (_, i) => at(now - 200_000 + i * 100));
		expect((await run({ maxItems: 1000 })).ids).toEqual(made);
		expect(staticData.recent).toHaveLength(RECENT_IDS);
		expect((await run({ maxItems: 1000 })).ids).toEqual([]);
	});

	it(`more than RECENT_IDS emitted within the overlap, the gap of a poll cut short among them: the newest ${RECENT_IDS} are remembered, none emitted again`, async () => {
		const { t, clock, staticData, run, at, setBudget } = recentSearch();
		const now = clock.now;
		at(now - 20 * 60_000);
		expect((await run({ maxItems: 1000 })).ids).toEqual([]);
		const backlog = Array.from({ length: 200 }, (_, i) => at(now - 170_000 + i * 100));
		// Cut short after its first page (100): the newest 100 emitted, the older 100 left as the gap.
		setBudget(-2);
		expect((await run({ maxItems: 1000 })).ids).toEqual(backlog.slice(100));
		setBudget(undefined);
		const newer = Array.from({ length: 450 }, (_, i) => at(now - 100_000 + i * 100));
		expect(t.pageLimit).toBe(100);
		// The gap's 100, then the 450 newer: 650 emitted within the overlap, the gap's the oldest.
		expect((await run({ maxItems: 1000 })).ids).toEqual([...backlog.slice(0, 100), ...newer]);
		expect(staticData.recent).toHaveLength(RECENT_IDS);
		expect((await run({ maxItems: 1000 })).ids).toEqual([]);
	});
});

describe('Poll Trigger pollOnce: the poll time, a spent window, a test, the start record', () => {
	it('a poll time of 0 gives no deadline: the poll reads its first page and emits', async () => {
		const w = userPosts();
		w.add(1);
		await w.run();
		const three = w.add(3);
		w.setBudget(0);
		expect((await w.run()).ids).toEqual(three);
	});

	it('a window with no request left: the polls until its reset send none; the first says so (info), the others at debug level', async () => {
		const w = userPosts();
		w.add(1);
		await w.run();
		const resetAt = Date.now() + 10 * 60_000;
		w.t.rate = { remaining: 0, resetAt };
		const [one] = w.add(1);
		expect((await w.run()).ids).toEqual([one]);
		w.add(1);
		w.asked();
		const skipped = [await w.run(), await w.run()];
		expect(w.asked()).toEqual([]);
		const line = (logs: Array<{ level: string; message: string }>, level: string) =>
			logs.filter(
				(l) =>
					l.level === level && l.message.includes('has no request left; polls are skipped until'),
			);
		expect(skipped.map((s) => s.ids)).toEqual([[], []]);
		expect(line(skipped[0].logs, 'info')).toHaveLength(1);
		expect(line(skipped[0].logs, 'debug')).toHaveLength(0);
		expect(line(skipped[1].logs, 'info')).toHaveLength(0);
		expect(line(skipped[1].logs, 'debug')).toHaveLength(1);
	});

	it('a first poll the window ends before 100 ids records nothing, and keeps the spent window: no request until its reset', async () => {
		const t: Timeline = {
			posts: Array.from({ length: 30 }, () => nextId()),
			pageLimit: 10,
			queries: [],
			rate: { remaining: 0, resetAt: Date.now() + 10 * 60_000 },
		};
		serveTimeline(`/2/users/${USER}/followers`, 'pagination_token', t);
		const staticData: IDataObject = {};
		const run = async () =>
			ids(
				await poll.call(
					pollContext(
						{
							event: 'followers',
							authentication: CREDENTIAL_TYPES.appOnly,
							user: { __rl: true, mode: 'id', value: USER },
						},
						staticData,
					).context,
				),
			);
		expect(await run()).toEqual([]);
		expect(t.queries).toHaveLength(1);
		expect(staticData.known).toBeUndefined();
		expect(await run()).toEqual([]);
		expect(t.queries).toHaveLength(1);
	});

	it('a test (manual) with nothing to show fails and says what a test shows', async () => {
		const w = userPosts();
		w.setMode('manual');
		await expect(w.run()).rejects.toMatchObject({
			message: expect.stringMatching(/^The service answered, but there are no .+ yet$/),
			description: expect.stringContaining('A test shows the latest items, new or not'),
		});
	});

	it('a node whose poll of another user was cut short, changed and published again: the other watch’s gap is not read on this one', async () => {
		const w = userPosts();
		const seven: Timeline = { posts: [], pageLimit: 5, queries: [] };
		serveTimeline('/2/users/7/tweets', 'pagination_token', seven);
		const watchSeven = { user: { __rl: true, mode: 'id', value: '7' } };
		seven.posts.push(nextId());
		await w.run(watchSeven);
		// User 7 posts 12; user 42 posts 3 among them (old by the time the node watches 42).
		for (let i = 0; i < 12; i++) {
			seven.posts.push(nextId());
			if (i % 4 === 1) w.add(1);
		}
		w.setBudget(-2);
		expect((await w.run(watchSeven)).ids).toHaveLength(5);
		expect(w.staticData.gap).toBeDefined();
		w.setBudget(undefined);
		const before = JSON.parse(JSON.stringify(w.staticData)) as IDataObject;
		jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 1_000);
		await w.run();
		jest.restoreAllMocks();
		w.setNodeData(before);
		const fresh = w.add(1);
		expect((await w.run()).ids).toEqual(fresh);
		expect((await w.run()).ids).toEqual([]);
	});

	it('a search changed to another query and published again: the other query’s overlap is not read on this one', async () => {
		const { clock, run, at, setNodeData, staticData } = recentSearch();
		const now = clock.now;
		// The fake answers every query alike: the posts are the other query's as well.
		at(now - 20 * 60_000);
		expect((await run({ query: 'autumn' })).ids).toEqual([]);
		expect((await run({ query: 'autumn' })).ids).toEqual([]);
		const older = at(now - 60_000);
		expect((await run({ query: 'autumn' })).ids).toEqual([older]);
		const before = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		expect(before.overlapFrom).toBeDefined();
		// Changed to 'sale' and published a second later: its start is recorded; n8n keeps nothing
		// else of that empty poll.
		clock.now += 1_000;
		expect((await run()).ids).toEqual([]);
		setNodeData(before);
		const fresh = at(clock.now - 500);
		expect((await run()).ids).toEqual([fresh]);
	});

	it.each([
		['cut short', 1],
		['that read several pages', 1.2],
	])(
		'followers: a node whose poll of another user %s (version %s), changed and published again: no old follower of this one is emitted, and an idle poll reads the smallest first page',
		async (how, version) => {
			const followers = (user: string): Served => {
				const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'added' };
				serve(
					{
						path: `/2/users/${user}/followers`,
						sinceId: false,
						tokenParam: 'pagination_token',
						bounds: { min: 1, max: 1000 },
					},
					served,
				);
				return served;
			};
			const follow = (served: Served, n: number) => {
				const added = Array.from({ length: n }, () => nextId());
				served.entries.push(...added.map((id) => ({ id, name: `User ${id}`, username: `u${id}` })));
				return added;
			};
			const seven = followers('7');
			const fortyTwo = followers(USER);
			let staticData: IDataObject = {};
			const global: IDataObject = {};
			let budget: number | undefined;
			const run = async (user: string) => {
				const built = pollContext(
					{
						event: 'followers',
						authentication: CREDENTIAL_TYPES.appOnly,
						user: { __rl: true, mode: 'id', value: user },
					},
					staticData,
					'trigger',
					{
						getPollBudgetMs: () => budget,
						getWorkflowStaticData: (type: string) => (type === 'global' ? global : staticData),
					},
					version,
				);
				return ids(await poll.call(built.context));
			};
			follow(seven, 30);
			expect(await run('7')).toEqual([]);
			follow(seven, 12);
			seven.pageLimit = 5;
			if (how === 'cut short') {
				budget = -2;
				expect(await run('7')).toHaveLength(5);
				expect(staticData.resumeAfter).toBeDefined();
				budget = undefined;
			} else {
				expect(await run('7')).toHaveLength(12);
				expect(staticData.paged).toBe(true);
			}
			const before = JSON.parse(JSON.stringify(staticData)) as IDataObject;
			follow(fortyTwo, 250);
			jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 1_000);
			expect(await run(USER)).toEqual([]);
			jest.restoreAllMocks();
			staticData = before;
			fortyTwo.queries.splice(0);
			expect(await run(USER)).toEqual([]);
			// Nothing changed on top: version 1.2 asks a first page of 2; version 1 its first page of 10.
			expect(fortyTwo.queries.map((q) => Number(q.max_results))).toEqual([version < 1.2 ? 10 : 2]);
			const [fresh] = follow(fortyTwo, 1);
			expect(await run(USER)).toEqual([`follow:${fresh}:${USER}`]);
			expect(await run(USER)).toEqual([]);
		},
	);

	it('a node that watched another user, changed and published again: its polls read on from the position its publishing recorded', async () => {
		const w = userPosts();
		w.add(1);
		// Watching user 7 first: a position of that watch (and its start record).
		nock(BASE)
			.persist()
			.get('/2/users/7/tweets')
			.query(true)
			.reply(200, {
				data: [{ id: nextId(), text: 'x', author_id: '7' }],
				meta: { result_count: 1 },
			});
		const seven = { user: { __rl: true, mode: 'id', value: '7' } };
		await w.run(seven);
		const before = JSON.parse(JSON.stringify(w.staticData)) as IDataObject;
		// Changed to user 42 and published: the poll at publishing records its start; n8n keeps nothing
		// else of that empty poll, so the next poll gets the node's static data as it was before.
		jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 1_000);
		await w.run();
		jest.restoreAllMocks();
		w.setNodeData(before);
		const since = w.add(2);
		const next = await w.run();
		expect(next.ids).toEqual(since);
		expect(
			next.logs.some((l) =>
				/reading on from the position recorded at \S+ \(when the workflow was published\)/.test(
					l.message,
				),
			),
		).toBe(true);
	});
});
