/**
 * The Poll Trigger's window of remembered ids and the 20 ids just below it (issue 51's mutation testing
 * of poll.ts's knownIdsPoll): many of the newest remembered followers removed at once, the cap's stop id
 * kept while remembered, version 1.2's `paged`, and the depth to which the window is read again. Each
 * drives the real poll() against followers served newest-added first.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import {
	ids,
	nextId,
	pollContext,
	serve,
	serveSpaces,
	USER_42,
	USER_42_FOLLOWERS,
	USER_42_FOLLOWERS_READ,
	USER_42_SPACES,
	type Served,
} from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const user = (id: string) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` });
const follow = (id: string) => `follow:${id}:${USER_42}`;

let workflows = 0;
/** A workflow of its own per test: version 1.2 remembers per workflow in the process which reads paged. */
function watcher(typeVersion = 1, maxItems = 100) {
	const workflow = { getWorkflow: () => ({ id: `windowBelow-${++workflows}`, active: true }) };
	const staticData: IDataObject = {};
	return {
		staticData,
		run: async () =>
			ids(
				await poll.call(
					pollContext(
						{ ...USER_42_FOLLOWERS, maxItems },
						staticData,
						'trigger',
						workflow,
						typeVersion,
					).context,
				),
			),
	};
}

/** `n` followers, oldest first; the newest added last (served on top). */
function followers(served: Served, n: number): string[] {
	const added = Array.from({ length: n }, () => nextId());
	served.entries.push(...added.map(user));
	return added;
}

function remove(served: Served, gone: string[]) {
	const set = new Set(gone);
	served.entries = served.entries.filter((e) => !set.has(String(e.id)));
}

describe('Poll Trigger: many remembered followers removed at once', () => {
	it.each([1, 1.2])(
		'version %s: 195 of the newest 200 unfollow; the read finds its place among the 20 below, emits only the new follower, and nothing old',
		async (typeVersion) => {
			const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
			serve(USER_42_FOLLOWERS_READ, served);
			const all = followers(served, 300);
			const { staticData, run } = watcher(typeVersion);
			expect(await run()).toEqual([]);
			const newest = [...all].reverse();
			expect(staticData.known).toEqual(newest.slice(0, 200));
			expect(staticData.below).toEqual(newest.slice(200, 220));
			// More than the stop run of 10: the 5 left of the window are not enough to end the read.
			remove(served, newest.slice(0, 195));
			const [x] = followers(served, 1);
			expect(await run()).toEqual([follow(x)]);
			// The window read again holds all that is left of what it remembered: nothing is below it.
			expect(staticData.known).toHaveLength(26);
			expect(staticData).not.toHaveProperty('below');
			expect(await run()).toEqual([]);
			const [y] = followers(served, 1);
			expect(await run()).toEqual([follow(y)]);
		},
	);

	it('the window lets ids go to the 20 below it, the newest of them first, and only those', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		const all = followers(served, 300);
		const { staticData, run } = watcher();
		expect(await run()).toEqual([]);
		const fresh = followers(served, 5);
		expect(await run()).toEqual(fresh.map(follow));
		const newest = [...all, ...fresh].reverse();
		expect(staticData.known).toEqual(newest.slice(0, 200));
		expect(staticData.below).toEqual(newest.slice(200, 220));
	});
});

describe('Poll Trigger: the window read again', () => {
	it('to the depth of the new followers, the window and the 20 below it: the 20 below are still remembered after', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		const all = followers(served, 300);
		const { staticData, run } = watcher();
		expect(await run()).toEqual([]);
		// The service now answers pages of 20: each page of the read again is a request.
		served.pageLimit = 20;
		served.queries.length = 0;
		const fresh = followers(served, 5);
		expect(await run()).toEqual(fresh.map(follow));
		const newest = [...all, ...fresh].reverse();
		expect(staticData.known).toEqual(newest.slice(0, 200));
		expect(staticData.below).toEqual(newest.slice(200, 220));
		// The read: a first page of 10, then one of 20 (a run of 10 remembered). The read again: 5 new, the
		// 205 of the window, the 20 below: 230 ids, 12 pages of 20.
		expect(served.queries.length).toBe(2 + 12);
	});

	it('not when the window keeps all it remembers: one request', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		followers(served, 50);
		const { run } = watcher();
		expect(await run()).toEqual([]);
		served.queries.length = 0;
		const [x] = followers(served, 1);
		expect(await run()).toEqual([follow(x)]);
		// The read: a first page of 10 (1 new, 9 remembered), a second to the run of 10; no read again.
		expect(served.queries.length).toBe(2);
	});

	it('not after a poll cut short by Max Items; the followers of the window and the 20 below stay remembered, and all of them removed emits nothing old', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		const all = followers(served, 300);
		const { staticData, run } = watcher(1, 10);
		expect(await run()).toEqual([]);
		const newest = [...all].reverse();
		expect(staticData.below).toEqual(newest.slice(200, 220));
		// 30 new, more than Max Items: the poll is cut short (the cap) and cannot tell which ids are gone.
		const fresh = followers(served, 30);
		served.queries.length = 0;
		expect(await run()).toHaveLength(10);
		expect(served.queries.length).toBe(1);
		expect(staticData.below).toEqual(newest.slice(200, 220));
		// All 30 new and the 200 of the window unfollow: the 20 below still find the place.
		remove(served, [...fresh, ...newest.slice(0, 200)]);
		expect(await run()).toEqual([]);
		const [x] = followers(served, 1);
		expect(await run()).toEqual([follow(x)]);
	});
});

describe('Poll Trigger: the place the cap stopped at', () => {
	it('is kept while it is among the 20 below the window: the followers above it removed, the read still stops there', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		const all = followers(served, 300);
		const { staticData, run } = watcher();
		expect(await run()).toEqual([]);
		const newest = [...all].reverse();
		// The first poll read 220 of 300: the 220th is where it stopped, the last of the 20 below.
		const stop = newest[219];
		expect(staticData.skippedBelow).toBe(stop);
		expect(staticData.below).toEqual(newest.slice(200, 220));
		// A poll with nothing new: the place is kept.
		expect(await run()).toEqual([]);
		expect(staticData.skippedBelow).toBe(stop);
		// All above it but one unfollow: that one and the place, in their order, end the read; the 80
		// older below it are not new.
		remove(served, newest.slice(0, 218));
		expect(await run()).toEqual([]);
	});

	it('is let go once it is below the 20 below the window: followed again, it does not end the read above a new follower', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		const all = followers(served, 300);
		const { staticData, run } = watcher();
		expect(await run()).toEqual([]);
		const stop = [...all].reverse()[219];
		const fresh = followers(served, 5);
		expect(await run()).toEqual(fresh.map(follow));
		expect(staticData).not.toHaveProperty('skippedBelow');
		const [x] = followers(served, 1);
		remove(served, [stop]);
		served.entries.push(user(stop));
		expect(await run()).toEqual([follow(x), follow(stop)]);
	});
});

describe('Poll Trigger version 1.2: a read of several requests (paged)', () => {
	it('makes the next poll ask a first page of 10, also after a poll cut short in one request; a read of one request to a run of remembered ids goes back to 2', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		followers(served, 50);
		const { staticData, run } = watcher(1.2, 10);
		expect(await run()).toEqual([]);
		const firstPages = async () => {
			served.queries.length = 0;
			const emitted = await run();
			return { emitted, first: Number(served.queries[0].max_results), n: served.queries.length };
		};
		// Nothing new: a first page of 2.
		expect(await firstPages()).toEqual({ emitted: [], first: 2, n: 1 });
		expect(staticData).not.toHaveProperty('paged');
		// 3 new: the first page of 2 reads on, in more requests.
		const three = followers(served, 3);
		const paged = await firstPages();
		expect(paged).toMatchObject({ emitted: three.map(follow), first: 2 });
		expect(paged.n).toBeGreaterThan(1);
		expect(staticData.paged).toBe(true);
		// 12 new, more than Max Items, in one request of 10: cut short, paged kept.
		followers(served, 12);
		expect(await firstPages()).toMatchObject({ first: 10, n: 1 });
		expect(staticData.paged).toBe(true);
		// So the next asks 10 again; it reads to a run of remembered ids in that one request.
		expect(await firstPages()).toMatchObject({ first: 10, n: 1 });
		expect(staticData).not.toHaveProperty('paged');
		expect(await firstPages()).toEqual({ emitted: [], first: 2, n: 1 });
	});

	it('version 1 does not remember it', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		followers(served, 50);
		const { staticData, run } = watcher(1);
		expect(await run()).toEqual([]);
		const fresh = followers(served, 15);
		expect(await run()).toEqual(fresh.map(follow));
		expect(staticData).not.toHaveProperty('paged');
	});
});

describe('Poll Trigger: followers with the User Fields created_at', () => {
	it('are emitted in the order they followed, not in the order their accounts were created', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		serve(USER_42_FOLLOWERS_READ, served);
		followers(served, 30);
		const staticData: IDataObject = {};
		const run = async () =>
			ids(
				await poll.call(
					pollContext(
						{ ...USER_42_FOLLOWERS, options: { userFields: 'username,name,created_at' } },
						staticData,
					).context,
				),
			);
		expect(await run()).toEqual([]);
		// The first to follow has the newest account.
		const fresh = [nextId(), nextId(), nextId()];
		served.entries.push(
			...fresh.map((id, i) => ({ ...user(id), created_at: `202${5 - i}-01-01T00:00:00.000Z` })),
		);
		expect(await run()).toEqual(fresh.map(follow));
		expect(served.queries.at(-1)?.['user.fields']).toBe('username,name,created_at');
	});
});

describe('Poll Trigger: Spaces', () => {
	it('keep a window of the newest 200 Spaces seen and nothing below it: the service answers them in no order', async () => {
		const answered: IDataObject[] = [];
		serveSpaces(answered);
		const staticData: IDataObject = {};
		const run = async () => ids(await poll.call(pollContext(USER_42_SPACES, staticData).context));
		let n = 0;
		const hundred = () =>
			Array.from({ length: 100 }, () => {
				const id = `1S${String(++n).padStart(11, '0')}`;
				return {
					id,
					state: 'scheduled',
					title: `Space ${id}`,
					creator_id: USER_42,
					created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
				};
			});
		answered.splice(0, answered.length, ...hundred());
		expect(await run()).toEqual([]);
		answered.splice(0, answered.length, ...hundred());
		expect(await run()).toHaveLength(100);
		answered.splice(0, answered.length, ...hundred());
		expect(await run()).toHaveLength(100);
		expect(staticData.known).toHaveLength(200);
		expect(staticData).not.toHaveProperty('below');
	});
});
