/**
 * Where the Poll Trigger's read of a list stops, case by case (issue 51's mutation testing of poll.ts,
 * bench/results/mutation.md): a page that repeats an item, the place the cap left, a run of remembered
 * ids of exactly STOP_RUN, the place a poll cut short stopped at, and a later page that starts with the
 * remembered top. Each drives the real poll() against a list served newest-added first.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE } from '../helpers/context';
import { nextId, pollContext } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const USER = '42';
const FOLLOWERS = {
	event: 'followers',
	authentication: CREDENTIAL_TYPES.appOnly,
	user: { __rl: true, mode: 'id', value: USER },
};
const follow = (id: string) => `follow:${id}:${USER}`;

/**
 * A user's followers, newest added first, in pages of at most `pageLimit` whose tokens are offsets
 * into the list as it is when the page is asked (items added on top meanwhile shift the next page).
 */
function followers(typeVersion = 1) {
	const list: string[] = []; // oldest first
	const asked: number[] = [];
	const world = {
		list,
		asked,
		pageLimit: 100,
		/** The rate-limit window the answers state in their headers (none when unset). */
		rate: undefined as { remaining: number; reset: number } | undefined,
		/** Answers without `meta` (the contract does not require it). */
		noMeta: false,
		/** Called before each page after the first of a read is answered. */
		beforeNextPage: undefined as (() => void) | undefined,
		add(n: number): string[] {
			const added = Array.from({ length: n }, () => nextId());
			list.push(...added);
			return added;
		},
		remove(ids: string[]) {
			const gone = new Set(ids);
			const kept = list.filter((id) => !gone.has(id));
			list.splice(0, list.length, ...kept);
		},
		/** Unfollowed and followed again, in this order: back on top. */
		readd(ids: string[]) {
			world.remove(ids);
			list.push(...ids);
		},
	};
	nock(BASE)
		.persist()
		.get(`/2/users/${USER}/followers`)
		.query(true)
		.reply((uri) => {
			const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
			asked.push(Number(q.max_results));
			if (q.pagination_token) world.beforeNextPage?.();
			const newestFirst = [...list].reverse();
			const start = q.pagination_token ? Number(q.pagination_token) : 0;
			const size = Math.min(Number(q.max_results), world.pageLimit);
			const data = newestFirst
				.slice(start, start + size)
				.map((id) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` }));
			const meta: IDataObject = { result_count: data.length };
			if (start + size < newestFirst.length) meta.next_token = String(start + size);
			const headers: Record<string, string> = {};
			if (world.rate) {
				world.rate.remaining = Math.max(0, world.rate.remaining - 1);
				headers['x-rate-limit-limit'] = '15';
				headers['x-rate-limit-remaining'] = String(world.rate.remaining);
				headers['x-rate-limit-reset'] = String(world.rate.reset);
			}
			if (world.noMeta) return [200, { data }, headers];
			return [200, data.length ? { data, meta } : { meta }, headers];
		});
	const staticData: IDataObject = {};
	let logs: Array<{ level: string; message: string }> = [];
	const run = async (parameters: IDataObject = {}, budget?: number) => {
		const built = pollContext(
			{ ...FOLLOWERS, ...parameters },
			staticData,
			'trigger',
			{ getPollBudgetMs: () => budget },
			typeVersion,
		);
		logs = built.logs;
		const result: INodeExecutionData[][] | null = await poll.call(built.context);
		return (result?.[0] ?? []).map((i) => String(i.json.event_id));
	};
	const warnings = () => logs.filter((l) => l.level === 'warn').map((l) => l.message);
	return Object.assign(world, { staticData, run, warnings });
}

describe('Poll Trigger: where the read of a list stops', () => {
	it('a follower the next page repeats (the page shifted by one who followed meanwhile) is emitted once', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(3);
		w.pageLimit = 2;
		// One more follows while the read asks its second page: that page starts with the last of the first.
		w.beforeNextPage = () => {
			w.beforeNextPage = undefined;
			late.push(...w.add(1));
		};
		const late: string[] = [];
		expect(await w.run()).toEqual(fresh.map(follow));
		expect(await w.run()).toEqual(late.map(follow));
		expect(await w.run()).toEqual([]);
	});

	it('after Max Items per Poll (2) skipped followers, the next poll stops at the older of the two it emitted', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(5);
		expect(await w.run({ maxItems: 2 })).toEqual(fresh.slice(-2).map(follow));
		const [x] = w.add(1);
		// The three the cap skipped are below the two emitted: old, not new.
		expect(await w.run({ maxItems: 2 })).toEqual([follow(x)]);
		expect(await w.run()).toEqual([]);
	});
	it('after the cap, a poll cut short, and one of the ids it stopped at unfollowing: the followers the cap skipped are not emitted', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const capped = w.add(5);
		expect(await w.run({ maxItems: 2 })).toEqual(capped.slice(-2).map(follow));
		const fresh = w.add(5);
		// n8n's poll time ends the read after its first page (of 2).
		w.pageLimit = 2;
		expect(await w.run({}, -1)).toEqual(fresh.slice(-2).map(follow));
		w.pageLimit = 100;
		// The older of the two it stopped at unfollows: the next read cannot pass the place it stopped at.
		w.remove([fresh[3]]);
		expect(await w.run()).toEqual(fresh.slice(0, 3).map(follow));
		expect(await w.run()).toEqual([]);
	});
	it('past the place a poll cut short stopped at, the read asks only for what completes a run of 10 remembered followers', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(3);
		// n8n's poll time ends the read after its first page, which holds the three new followers.
		w.pageLimit = 3;
		expect(await w.run({}, -1)).toEqual(fresh.map(follow));
		w.asked.splice(0);
		// The next poll reads the three again (the place it stopped at), then 9 remembered complete the run.
		expect(await w.run()).toEqual([]);
		expect(w.asked).toEqual([100, 9, 6, 3]);
		expect(await w.run()).toEqual([]);
	});

	it('when one of the ids a cut short poll stopped at unfollows, the 10th remembered follower older than that place ends the read', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(3);
		w.pageLimit = 2;
		expect(await w.run({}, -1)).toEqual(fresh.slice(-2).map(follow));
		w.remove([fresh[1]]);
		// The first page ends with the 10th remembered follower older than the place the cut poll stopped at.
		w.pageLimit = 12;
		w.asked.splice(0);
		expect(await w.run()).toEqual([follow(fresh[0])]);
		expect(w.asked).toHaveLength(1);
		expect(await w.run()).toEqual([]);
	});
});

describe('Poll Trigger version 1.2: the idle read', () => {
	it('a later page that starts with the newest remembered followers does not end the read: one shown in the middle below them is emitted', async () => {
		const w = followers(1.2);
		const old = w.add(12);
		expect(await w.run()).toEqual([]);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(2);
		// An account made public (or restored) shows among the older followers, below the two newest remembered.
		const [z] = [nextId()];
		w.list.splice(w.list.indexOf(old[10]), 0, z);
		w.pageLimit = 2;
		expect((await w.run()).sort()).toEqual([...fresh, z].map(follow).sort());
		expect(await w.run()).toEqual([]);
	});
});

describe('Poll Trigger: what ends a read of several pages', () => {
	it('an answer without meta (the contract does not require it) is the last page', async () => {
		const w = followers();
		w.noMeta = true;
		w.add(12);
		expect(await w.run()).toEqual([]);
		const [x] = w.add(1);
		expect(await w.run()).toEqual([follow(x)]);
	});

	it('a page that fills Max Items per Poll ends the read: no further page is asked', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(3);
		w.pageLimit = 2;
		w.asked.splice(0);
		expect(await w.run({ maxItems: 2 })).toEqual(fresh.slice(-2).map(follow));
		expect(w.asked).toHaveLength(1);
		expect(w.warnings().join('\n')).toContain('more than 2 new items since the last poll');
	});

	it("within n8n's poll time the read goes on past its first page; past half of it, it stops and says after how many pages", async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(5);
		w.pageLimit = 2;
		expect(await w.run({}, 60_000)).toEqual(fresh.map(follow));
		const more = w.add(5);
		expect(await w.run({}, -1)).toEqual(more.slice(-2).map(follow));
		expect(w.warnings()).toEqual([
			expect.stringContaining(
				"stopped reading after 1 pages to finish within n8n's poll time; the next poll reads on from there",
			),
		]);
		expect(await w.run()).toEqual(more.slice(0, 3).map(follow));
	});

	it('a read the rate-limit window ends says after how many pages and until when', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(5);
		w.pageLimit = 2;
		const reset = Math.ceil(Date.now() / 1000) + 600;
		w.rate = { remaining: 2, reset };
		expect(await w.run()).toEqual(fresh.slice(-4).map(follow));
		expect(w.warnings()).toEqual([
			expect.stringContaining(
				`stopped reading after 2 pages: the service's rate-limit window has no request left until ${new Date(reset * 1000).toISOString()}; the first poll after it reads on from there`,
			),
		]);
	});

	it('the guard of 50 pages ends a read and says so', async () => {
		const w = followers();
		w.add(60);
		w.pageLimit = 1;
		w.rate = { remaining: 1000, reset: Math.ceil(Date.now() / 1000) + 600 };
		expect(await w.run()).toEqual([]);
		expect(w.asked).toHaveLength(50);
		expect(w.warnings()).toEqual([
			expect.stringContaining('stopped reading after 50 pages; the next poll reads on from there'),
		]);
	});
});

describe('Poll Trigger: what a poll remembers of the place it stopped at and of the list', () => {
	it('one of the ids a cut short poll stopped at unfollows, and two older followers follow again on top: the followers it had not read are emitted', async () => {
		const w = followers();
		const old = w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(5);
		w.pageLimit = 2;
		expect(await w.run({}, -1)).toEqual(fresh.slice(-2).map(follow));
		w.pageLimit = 100;
		w.remove([fresh[3]]);
		w.readd([old[0], old[1]]);
		expect(await w.run()).toEqual(fresh.slice(0, 3).map(follow));
		expect(await w.run()).toEqual([]);
	});

	it('the only id a cut short poll stopped at unfollows: the 10th remembered follower older than it ends the read, in one request', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(3);
		w.pageLimit = 1;
		expect(await w.run({}, -1)).toEqual([follow(fresh[2])]);
		w.remove([fresh[2]]);
		w.pageLimit = 12;
		w.asked.splice(0);
		expect(await w.run()).toEqual(fresh.slice(0, 2).map(follow));
		expect(w.asked).toHaveLength(1);
	});

	it('three polls in a row, two cut short (the second after 40 followers): every new follower is emitted once', async () => {
		const w = followers();
		w.add(12);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(60);
		w.pageLimit = 40;
		expect(await w.run({}, -1)).toEqual(fresh.slice(50).map(follow));
		expect(await w.run({}, -1)).toEqual(fresh.slice(20, 50).map(follow));
		// The third reads past the place the second stopped at (it had passed the first's), then asks only
		// for the 8 that complete a run of 10 remembered.
		w.pageLimit = 62;
		w.asked.splice(0);
		expect(await w.run()).toEqual(fresh.slice(0, 20).map(follow));
		expect(w.asked).toEqual([100, 8]);
		expect(await w.run()).toEqual([]);
	});

	it('a poll that reads within the 200 ids remembered does not read the list again', async () => {
		const w = followers();
		w.add(195);
		expect(await w.run()).toEqual([]);
		const [x] = w.add(1);
		w.asked.splice(0);
		expect(await w.run()).toEqual([follow(x)]);
		// A first page of 10, then 1 more completes the run of 10 remembered; no read of the list's 200.
		expect(w.asked).toEqual([10, 1]);
	});

	it('a poll cut short keeps the ids the window would let go of', async () => {
		const w = followers();
		w.add(200);
		expect(await w.run()).toEqual([]);
		const fresh = w.add(10);
		expect(await w.run({}, -1)).toEqual(fresh.map(follow));
		expect(w.staticData.known).toHaveLength(210);
	});

	it('version 1.2: two followers remembered are enough for the idle read (a first page of 2)', async () => {
		const w = followers(1.2);
		w.add(2);
		expect(await w.run()).toEqual([]);
		w.asked.splice(0);
		expect(await w.run()).toEqual([]);
		expect(w.asked).toEqual([2]);
	});
});
