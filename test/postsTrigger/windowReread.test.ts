/**
 * The Poll Trigger reads a list again before its window of remembered ids lets ids go (issue 51's
 * mutation testing of poll.ts, listIds). Modes without since_id remember the newest 200 ids of the list
 * (and 20 below them); a poll that reads past them would let the oldest go. Some of those it keeps may be
 * gone (followers who left since): a window of gone ids finds no place once the newer ones go too, and
 * every older item looks new. So the list is read again, in its largest pages and with the query the
 * first read sends, to the window's depth, and the ids not in it are dropped. Where the rate-limit window
 * has no request left or half of n8n's poll time has passed, the read is not done: the window keeps the
 * ids it would let go of (up to twice its size) until a poll that can. Each case drives the real poll()
 * against the fake service of ./helpers (serve), every request held against the service's contract.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE } from '../helpers/context';
import type { FakeRead, Served } from './helpers';
import {
	nextId,
	pollContext,
	serve,
	USER_42,
	USER_42_FOLLOWERS,
	USER_42_FOLLOWERS_READ,
} from './helpers';

/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox's contract checker is plain CommonJS */
const { createChecker } = require('../../sandbox/contract/check') as {
	createChecker(): {
		check(request: IDataObject): { violations: Array<{ rule: string; message: string }> };
	};
};
/* eslint-enable @typescript-eslint/no-require-imports */

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const checker = createChecker();

/**
 * What the contract refuses in these requests (none: the service would answer each). The fake's page
 * tokens are offsets, shorter than the service's: a token is held to the contract as one of the
 * service's (the cases check that each page sends the token of the page before).
 */
function refused(path: string, queries: Array<Record<string, string>>, kind: 'app' | 'oauth2') {
	return queries.flatMap((q) =>
		checker
			.check({
				method: 'GET',
				path,
				query: Object.entries(q).map(([k, v]) =>
					k === 'pagination_token' ? [k, `${v.padStart(16, '0')}`] : [k, v],
				),
				auth: { kind },
			})
			.violations.map((v) => `${v.rule}: ${v.message}`),
	);
}

/** A request's query without its page size and page token: what names the list and its fields. */
function listQuery(q: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(q).filter(([k]) => k !== 'max_results' && k !== 'pagination_token'),
	);
}

const user = (id: string) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` });
const follow = (id: string) => `follow:${id}:${USER_42}`;

/** The followers' largest page, in the contract (GET /2/users/{id}/followers, max_results maximum). */
const FOLLOWERS_LARGEST_PAGE = '1000';

/**
 * User 42's followers, served newest added first, with a rate-limit window of room to spare (unless a
 * case says otherwise) and the trigger's static data.
 */
function followers(count: number) {
	const old = Array.from({ length: count }, () => nextId());
	const served: Served = {
		entries: old.map(user),
		pageLimit: 100,
		queries: [],
		order: 'added',
		rate: { limit: 1000, remaining: 1000, reset: Math.ceil(Date.now() / 1000) + 900 },
	};
	serve(USER_42_FOLLOWERS_READ, served);
	const staticData: IDataObject = {};
	const run = async (parameters: IDataObject = {}, budget?: number) => {
		const built = pollContext({ ...USER_42_FOLLOWERS, ...parameters }, staticData, 'trigger', {
			getPollBudgetMs: () => budget,
		});
		const result: INodeExecutionData[][] | null = await poll.call(built.context);
		return (result?.[0] ?? []).map((i) => String(i.json.event_id));
	};
	const follows = (n: number): string[] => {
		const added = Array.from({ length: n }, () => nextId());
		served.entries.push(...added.map(user));
		return added;
	};
	const unfollow = (ids: string[]) => {
		const gone = new Set(ids);
		served.entries = served.entries.filter((e) => !gone.has(String(e.id)));
	};
	/** The ids the trigger remembers (its window and the ids just below it). */
	const remembered = () => [
		...((staticData.known as string[] | undefined) ?? []),
		...((staticData.below as string[] | undefined) ?? []),
	];
	return {
		old,
		served,
		staticData,
		run,
		follows,
		unfollow,
		/**
		 * `gone` leave and one follows: the new follower, and the ids the window is read again from (those
		 * remembered now and the new one).
		 */
		churn(gone: string[]) {
			unfollow(gone);
			const [x] = follows(1);
			return { x, before: new Set([...remembered(), x]) };
		},
		/** Those of `ids` the trigger still remembers. */
		keptOf: (ids: string[]) => remembered().filter((id) => ids.includes(id)),
		/**
		 * What the window holds once the list was read again: of the ids remembered before (and the new
		 * ones read), those still in the list, in its order now (newest first), up to 200.
		 */
		settled(before: Set<string>) {
			return served.entries
				.map((e) => String(e.id))
				.reverse()
				.filter((id) => before.has(id))
				.slice(0, 200);
		},
		/** The requests of the read again: the followers' largest page. */
		rereads: () => served.queries.filter((q) => q.max_results === FOLLOWERS_LARGEST_PAGE),
	};
}

type Followers = ReturnType<typeof followers>;

/** User 42's `count` followers when the workflow is published: the first poll emits none of them. */
async function published(count: number): Promise<Followers> {
	const w = followers(count);
	expect(await w.run()).toEqual([]);
	return w;
}

/** A poll (its requests recorded afresh) that emits the follow of `x` only. */
async function emitsOnly(w: Followers, x: string, budget?: number) {
	w.served.queries.splice(0);
	expect(await w.run({}, budget)).toEqual([follow(x)]);
}

/** Not read again: the window keeps the id it would let go of (201 ids) and every follower in `gone`. */
function expectHeld(w: Followers, gone: string[]) {
	expect(w.staticData.known).toHaveLength(201);
	expect(w.keptOf(gone)).toHaveLength(gone.length);
}

/** Read again: the window is what it held (`before`) as the list is now, and none of `gone`. */
function expectSettled(w: Followers, before: Set<string>, gone: string[]) {
	expect(w.staticData.known).toEqual(w.settled(before));
	expect(w.keptOf(gone)).toEqual([]);
}

describe('Poll Trigger: the list read again before the window of 200 remembered ids lets ids go', () => {
	it('followers: bots follow and leave for five polls, then all leave with the ten newest followers: no old follower is emitted', async () => {
		const w = await published(300);
		// A hundred bots follow every poll and those of the poll before leave: the remembered ids fill up
		// with followers who left (500 of them, more than the window's 200 and the 400 it keeps at most).
		let bots: string[] = [];
		for (let p = 0; p < 5; p++) {
			w.unfollow(bots);
			bots = w.follows(100);
			expect(await w.run({ maxItems: 500 })).toEqual(bots.map(follow));
		}
		w.unfollow([...bots, ...w.old.slice(-10)]);
		const [x] = w.follows(1);
		expect(await w.run({ maxItems: 500 })).toEqual([follow(x)]);
		expect(await w.run({ maxItems: 500 })).toEqual([]);
		expect(refused(USER_42_FOLLOWERS_READ.path, w.served.queries, 'app')).toEqual([]);
	});

	it('followers: the list is read again in its largest pages with the query of the first read, and the followers who left are no longer remembered', async () => {
		const w = await published(600);
		// Fifty of the remembered followers (not the newest ten) leave, and one follows.
		const gone = w.old.slice(-150, -100);
		const { x, before } = w.churn(gone);
		// n8n's poll time of its durable scheduler (36 s): far from spent.
		await emitsOnly(w, x, 36_000);
		const rereads = w.rereads();
		expect(rereads.length).toBeGreaterThan(0);
		// The first read (pages of 10 and 1) and the read again ask for the same list with the same fields;
		// each page of the read again takes the token of the page before.
		const [first] = w.served.queries;
		expect(first.max_results).toBe('10');
		for (const q of w.served.queries) expect(listQuery(q)).toEqual(listQuery(first));
		expect(rereads[0].pagination_token).toBeUndefined();
		for (let i = 1; i < rereads.length; i++)
			expect(Number(rereads[i].pagination_token)).toBe(100 * i);
		expect(refused(USER_42_FOLLOWERS_READ.path, w.served.queries, 'app')).toEqual([]);
		// The window is what it held as the list is now: none of those who left.
		expect(w.staticData.known).toEqual(w.settled(before));
		expect(w.staticData.known).toHaveLength(221 - gone.length);
		expect(w.keptOf(gone)).toEqual([]);
	});

	it("followers: the read again stops at the window's depth (200 remembered, 20 below, and the new one): no page past it is asked", async () => {
		const w = await published(600);
		const [x] = w.follows(1);
		// Pages of 111 (the service may answer fewer than max_results): the depth, 1 + 201 + 20 = 222
		// ids, is reached at the end of the second page, with more of the list after it.
		w.served.pageLimit = 111;
		await emitsOnly(w, x);
		expect(w.rereads()).toHaveLength(2);
		expect(w.staticData.known).toHaveLength(200);
	});

	it('followers: the read again of a list shorter than its depth ends with the list (no next_token)', async () => {
		const w = await published(230);
		const gone = w.old.slice(0, 30);
		const { x } = w.churn(gone);
		w.served.pageLimit = 1000;
		await emitsOnly(w, x);
		// 201 followers in one page: more than the window, fewer than its depth.
		expect(w.rereads()).toHaveLength(1);
		expect(w.staticData.known).toHaveLength(200);
		expect(w.keptOf(gone)).toEqual([]);
	});

	it('followers: a page of the read again without meta (the contract does not require it) is its last', async () => {
		const w = await published(600);
		const gone = w.old.slice(-150, -100);
		const { x } = w.churn(gone);
		w.served.noMeta = (q) => q.max_results === FOLLOWERS_LARGEST_PAGE;
		await emitsOnly(w, x);
		expect(w.rereads()).toHaveLength(1);
		// What that page (of 100) answered is the window now.
		const live = w.served.entries.map((e) => String(e.id)).reverse();
		expect(w.staticData.known).toEqual(live.slice(0, 100));
		expect(w.keptOf(gone)).toEqual([]);
	});

	it('followers: the read again stops after 50 pages (the guard of every read): the window is not settled and keeps what it would let go of', async () => {
		const w = await published(300);
		const [x] = w.follows(1);
		// A service answering two followers a page: the depth (222) would take 111 pages.
		w.served.pageLimit = 2;
		await emitsOnly(w, x);
		expect(w.rereads()).toHaveLength(50);
		expect(w.staticData.known).toHaveLength(201);
	});

	it('followers: with no request left in the rate-limit window after the read, the list is not read again (no 429); the first poll after the reset reads it and drops the followers who left', async () => {
		const w = await published(300);
		const gone = w.old.slice(-150, -100);
		const { x, before } = w.churn(gone);
		// Two requests left: the read's two pages (10, then the 1 that completes ten remembered).
		const reset = Math.ceil(Date.now() / 1000) + 2;
		w.served.rate = { limit: 15, remaining: 2, reset };
		await emitsOnly(w, x);
		expect(w.served.queries.map((q) => q.max_results)).toEqual(['10', '1']);
		// Not read again: the window keeps the id it would let go of (201 ids) and those who left.
		expectHeld(w, gone);
		// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code: the window's reset (whole seconds) passes
		await new Promise((resolve) => setTimeout(resolve, reset * 1000 - Date.now() + 50));
		w.served.rate = { limit: 15, remaining: 15, reset: Math.ceil(Date.now() / 1000) + 900 };
		w.served.queries.splice(0);
		expect(await w.run()).toEqual([]);
		expect(w.rereads().length).toBeGreaterThan(0);
		expectSettled(w, before, gone);
	});

	it("followers: past half of n8n's poll time after the read, the list is not read again; the next poll with time reads it and drops the followers who left", async () => {
		const w = await published(300);
		const gone = w.old.slice(-150, -100);
		const { x, before } = w.churn(gone);
		// A poll time of 3 s, and the read's second page answered after 1.8 s: past half of it, within it.
		w.served.delayMs = (q) => (q.pagination_token && q.max_results === '1' ? 1800 : 0);
		await emitsOnly(w, x, 3000);
		expect(w.rereads()).toEqual([]);
		expectHeld(w, gone);
		w.served.delayMs = undefined;
		expect(await w.run({}, 3000)).toEqual([]);
		expect(w.rereads().length).toBeGreaterThan(0);
		expectSettled(w, before, gone);
	});
});

describe('Poll Trigger version 1.1: direct messages read again', () => {
	const ME = '7';
	const DM_READ: FakeRead = {
		path: '/2/dm_events',
		sinceId: false,
		tokenParam: 'pagination_token',
		bounds: { min: 1, max: 100 },
	};
	const message = (id: string) => ({
		id,
		event_type: 'MessageCreate',
		text: `dm ${id}`,
		sender_id: '99',
		dm_conversation_id: `${ME}-99`,
	});

	it('messages only (joins and leaves left out): the read again asks for messages only, in pages of 100, and drops the deleted ones', async () => {
		nock(BASE)
			.persist()
			.get('/2/users/me')
			.reply(200, { data: { id: ME, username: 'me', name: 'Me' } });
		const old = Array.from({ length: 300 }, () => nextId());
		const served: Served = { entries: old.map(message), pageLimit: 100, queries: [], order: 'id' };
		serve(DM_READ, served);
		const staticData: IDataObject = {};
		const run = async () => {
			const built = pollContext(
				{ event: 'directMessages', authentication: CREDENTIAL_TYPES.pkce, joinsAndLeaves: false },
				staticData,
				'trigger',
				{},
				1.1,
			);
			return ((await poll.call(built.context))?.[0] ?? []).map((i) => String(i.json.event_id));
		};
		expect(await run()).toEqual([]);
		const deleted = new Set(old.slice(-150, -120));
		served.entries = served.entries.filter((e) => !deleted.has(String(e.id)));
		const x = nextId();
		served.entries.push(message(x));
		const before = new Set([
			...(staticData.known as string[]),
			...((staticData.below as string[] | undefined) ?? []),
			x,
		]);
		served.queries.splice(0);
		expect(await run()).toEqual([x]);
		const rereads = served.queries.filter((q) => q.max_results === '100');
		expect(rereads.length).toBeGreaterThan(0);
		for (const q of served.queries) {
			expect(q.event_types).toBe('MessageCreate');
			expect(listQuery(q)).toEqual(listQuery(served.queries[0]));
		}
		expect(refused(DM_READ.path, served.queries, 'oauth2')).toEqual([]);
		// The window: the messages it held (200 and 20 below, the new one) that are not deleted, newest first.
		const newestFirst = served.entries
			.map((e) => String(e.id))
			.sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1));
		expect(staticData.known).toEqual(newestFirst.filter((id) => before.has(id)));
		expect(staticData.known).toHaveLength(221 - deleted.size);
	});
});
