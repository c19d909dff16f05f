/**
 * Regressions of the Poll Trigger against what the service does and the explorer's first models left
 * out (issue 51): recent search's indexing lag, a page the service emptied that still carries a
 * next_token, a poll cut short whose stop ids are then removed, churn of remembered ids, and the same
 * credential reconnected to another account. Each drives the real poll() against a fake service.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE, defaultCredentials } from '../helpers/context';
import { nextId, pollContext, postIdAt } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const USER = '42';
const user = (id: string) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` });
const post = (id: string) => ({ id, text: `post ${id}`, author_id: USER });

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

interface World {
	/** Oldest first. */
	entries: IDataObject[];
	order: 'id' | 'added';
	pageLimit: number;
	/** Called before each page is answered (0-based page of the poll's read). */
	beforePage?: (page: number, q: Record<string, string>) => void;
	/** Which entries the service shows (indexed) now. */
	visible?: (e: IDataObject) => boolean;
	/** Pages (by token) answered empty with a next_token: deleted or withheld items. */
	emptied?: Set<string>;
	/**
	 * Page tokens are cursors past the page's last item (the explorer's model; assumed, the contract
	 * says only "opaque"): what is added on top meanwhile does not shift the next page. Otherwise offsets.
	 */
	cursors?: boolean;
	requests: Array<Record<string, string>>;
}

function serveWorld(path: string | RegExp, tokenParam: string, world: World) {
	let page = 0;
	nock(BASE)
		.persist()
		.get(path)
		.query(true)
		.reply((uri) => {
			const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
			world.requests.push(q);
			if (!q[tokenParam]) page = 0;
			world.beforePage?.(page++, q);
			let list =
				world.order === 'added'
					? [...world.entries].reverse()
					: [...world.entries].sort((a, b) =>
							BigInt(String(a.id)) < BigInt(String(b.id)) ? 1 : -1,
						);
			if (world.visible) list = list.filter(world.visible);
			if (q.since_id !== undefined)
				list = list.filter((e) => BigInt(String(e.id)) > BigInt(q.since_id));
			if (q.until_id !== undefined)
				list = list.filter((e) => BigInt(String(e.id)) < BigInt(q.until_id));
			const token = q[tokenParam];
			const start = !token
				? 0
				: world.cursors
					? list.findIndex((e) => String(e.id) === token) + 1
					: Number(token);
			const size = Math.min(Number(q.max_results), world.pageLimit);
			let data = list.slice(start, start + size);
			if (world.emptied?.has(String(start))) data = [];
			const meta: IDataObject = { result_count: data.length };
			if (start + size < list.length)
				meta.next_token = world.cursors ? String(list[start + size - 1].id) : String(start + size);
			// A window with room to spare: the rate limit is not what these cases are about.
			const headers = {
				'x-rate-limit-limit': '1000',
				'x-rate-limit-remaining': '999',
				'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000) + 900),
			};
			return [200, data.length ? { data, meta } : { meta }, headers];
		});
}

/** The node's version the cases run at: 1, and 1.2 with its short first page (IDLE_READ_VERSION). */
let typeVersion = 1;

async function runPoll(parameters: IDataObject, staticData: IDataObject, extra: IDataObject = {}) {
	const built = pollContext(parameters, staticData, 'trigger', extra, typeVersion);
	return ids(await poll.call(built.context));
}

/**
 * One workflow polled again and again with a credential connected to `account()`: a reconnect keeps
 * the credential (and the workflow), and n8n stores the new account's tokens in it.
 */
function connectedTo(account: () => string, workflowId: string): IDataObject {
	return {
		getWorkflow: () => ({ id: workflowId, name: 'Reconnected', active: true }),
		getCredentials: async (type: string) => ({
			...defaultCredentials()[type],
			oauthTokenData: { access_token: `token-of-${account()}` },
		}),
	};
}

const FOLLOWERS = {
	event: 'followers',
	authentication: CREDENTIAL_TYPES.appOnly,
	user: { __rl: true, mode: 'id', value: USER },
};

describe.each([1, 1.2])('Poll Trigger against the service as it is (version %s)', (version) => {
	beforeEach(() => {
		typeVersion = version;
	});

	it('search: a post indexed a minute after a newer one that was already emitted is emitted once', async () => {
		const now = Date.now();
		const world: World = { entries: [], order: 'id', pageLimit: 100, requests: [] };
		const indexed = new Set<string>();
		world.visible = (e) => indexed.has(String(e.id));
		serveWorld('/2/tweets/search/recent', 'next_token', world);
		const params = { event: 'search', authentication: CREDENTIAL_TYPES.appOnly, query: 'sale' };
		const staticData: IDataObject = {};
		const at = (ms: number, shown: boolean) => {
			const id = (BigInt(postIdAt(ms)) + BigInt(world.entries.length)).toString();
			world.entries.push(post(id));
			if (shown) indexed.add(id);
			return id;
		};
		at(now - 600_000, true);
		expect(await runPoll(params, staticData)).toEqual([]);
		// A made first, B thirty seconds later; B is indexed at once, A a minute later.
		const a = at(now - 60_000, false);
		const b = at(now - 30_000, true);
		expect(await runPoll(params, staticData)).toEqual([b]);
		indexed.add(a);
		expect(await runPoll(params, staticData)).toEqual([a]);
		expect(await runPoll(params, staticData)).toEqual([]);
	});

	it('userPosts: a page the service emptied (result_count 0, a next_token) does not end the read', async () => {
		const world: World = { entries: [], order: 'id', pageLimit: 2, requests: [] };
		serveWorld(`/2/users/${USER}/tweets`, 'pagination_token', world);
		const params = {
			event: 'userPosts',
			authentication: CREDENTIAL_TYPES.appOnly,
			user: { __rl: true, mode: 'id', value: USER },
		};
		const staticData: IDataObject = {};
		world.entries.push(post(nextId()));
		expect(await runPoll(params, staticData)).toEqual([]);
		const fresh = [nextId(), nextId(), nextId(), nextId(), nextId(), nextId()];
		world.entries.push(...fresh.map(post));
		// The second page (items 3 and 4 of the answer) was emptied after paging: withheld posts.
		world.emptied = new Set(['2']);
		const first = await runPoll(params, staticData);
		world.emptied = undefined;
		const second = await runPoll(params, staticData);
		// The withheld page's posts may come later, once; the ones after it are not lost.
		const all = [...first, ...second];
		expect(new Set(all).size).toBe(all.length);
		expect(all).toEqual(expect.arrayContaining([fresh[0], fresh[1], fresh[4], fresh[5]]));
		expect(first).toEqual(expect.arrayContaining([fresh[4], fresh[5]]));
	});

	it('followers: a page the service emptied does not end the read', async () => {
		const world: World = { entries: [], order: 'added', pageLimit: 3, requests: [] };
		serveWorld(`/2/users/${USER}/followers`, 'pagination_token', world);
		const staticData: IDataObject = {};
		world.entries.push(...Array.from({ length: 12 }, () => user(nextId())));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
		const fresh = Array.from({ length: 9 }, () => nextId());
		world.entries.push(...fresh.map(user));
		world.emptied = new Set(['3']);
		const got = await runPoll(FOLLOWERS, staticData);
		world.emptied = undefined;
		const later = await runPoll(FOLLOWERS, staticData);
		const all = [...got, ...later];
		expect(new Set(all).size).toBe(all.length);
		expect(all.sort()).toEqual(fresh.map((id) => `follow:${id}:${USER}`).sort());
	});

	it('followers: a poll cut short, then one of the ids it stopped at unfollows: no old follower is emitted', async () => {
		const world: World = { entries: [], order: 'added', pageLimit: 100, requests: [] };
		serveWorld(`/2/users/${USER}/followers`, 'pagination_token', world);
		const staticData: IDataObject = {};
		const old = Array.from({ length: 300 }, () => nextId());
		world.entries.push(...old.map(user));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
		world.pageLimit = 5;
		const fresh = Array.from({ length: 20 }, () => nextId());
		world.entries.push(...fresh.map(user));
		// n8n's poll time cuts the read after its first page (of 5 items; of 2 from version 1.2).
		const cut = await runPoll(FOLLOWERS, staticData, { getPollBudgetMs: () => -1 });
		expect(cut).toHaveLength(typeVersion < 1.2 ? 5 : 2);
		// The last follower read before the cut unfollows.
		const stoppedAt = String(
			staticData.resumeAfter ? (staticData.resumeAfter as string[]).at(-1) : '',
		);
		world.entries = world.entries.filter((e) => e.id !== stoppedAt);
		const rest = await runPoll(FOLLOWERS, staticData);
		const all = [...cut, ...rest];
		const expected = fresh.filter((id) => id !== stoppedAt).map((id) => `follow:${id}:${USER}`);
		expect(all.filter((e) => e !== `follow:${stoppedAt}:${USER}`).sort()).toEqual(expected.sort());
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
	});

	it('followers: follow-and-unfollow bots for a dozen polls, then they leave: no old follower is emitted', async () => {
		const world: World = { entries: [], order: 'added', pageLimit: 100, requests: [] };
		serveWorld(`/2/users/${USER}/followers`, 'pagination_token', world);
		const staticData: IDataObject = {};
		world.entries.push(...Array.from({ length: 300 }, () => user(nextId())));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
		// Twenty bots follow every poll for a dozen polls (more than the 200 ids the trigger keeps),
		// and those of four polls before unfollow; then all the bots leave.
		const bots: string[][] = [];
		for (let p = 0; p < 12; p++) {
			const gone = new Set(bots[p - 4] ?? []);
			world.entries = world.entries.filter((e) => !gone.has(String(e.id)));
			bots.push(Array.from({ length: 20 }, () => nextId()));
			world.entries.push(...bots[p].map(user));
			expect(await runPoll(FOLLOWERS, staticData)).toHaveLength(20);
		}
		const left = new Set(bots.flat());
		world.entries = world.entries.filter((e) => !left.has(String(e.id)));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
		const [x] = [nextId()];
		world.entries.push(user(x));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([`follow:${x}:${USER}`]);
	});

	it('bookmarks: the user clears 195 of the newest 200 bookmarks: no old bookmark is emitted', async () => {
		nock(BASE)
			.persist()
			.get('/2/users/me')
			.reply(200, { data: { id: '7', username: 'me' } });
		const world: World = { entries: [], order: 'added', pageLimit: 100, requests: [] };
		serveWorld('/2/users/7/bookmarks', 'pagination_token', world);
		const params = { event: 'bookmarks', authentication: CREDENTIAL_TYPES.pkce };
		const staticData: IDataObject = {};
		const all = Array.from({ length: 400 }, () => nextId());
		world.entries.push(...all.map(post));
		expect(await runPoll(params, staticData)).toEqual([]);
		// Of the newest 200, every 40th is kept.
		const newest = all.slice(-200);
		const cleared = new Set(newest.filter((_, i) => i % 40 !== 1));
		world.entries = world.entries.filter((e) => !cleared.has(String(e.id)));
		expect(await runPoll(params, staticData)).toEqual([]);
		const x = nextId();
		world.entries.push(post(x));
		expect(await runPoll(params, staticData)).toEqual([`bookmark:7:${x}`]);
	});

	it('followers: the place where the first poll stopped, followed again, does not end the read before a new follower', async () => {
		const world: World = { entries: [], order: 'added', pageLimit: 100, requests: [] };
		serveWorld(`/2/users/${USER}/followers`, 'pagination_token', world);
		const staticData: IDataObject = {};
		world.entries.push(...Array.from({ length: 300 }, () => user(nextId())));
		// The first poll reads 220 of 300: older ones are not new, the 220th is where it stopped.
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
		const stop = String(staticData.skippedBelow);
		expect(stop).not.toBe('undefined');
		const x = nextId();
		world.entries.push(user(x));
		// The follower at that place unfollows and follows again: on top, above the new one.
		world.entries = world.entries.filter((e) => e.id !== stop);
		world.entries.push(user(stop));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([`follow:${x}:${USER}`]);
	});

	// Found by the explorer's long sweep (its FOUND cases "... behind a read of two pages ..."): version
	// 1.2's first page of 2 answered the newest remembered in their order and ended the read, above
	// followers that came while the poll before read its second page.
	it.each([
		['the next poll', false],
		['the next poll in another n8n process (a restart)', true],
	])(
		'followers: new followers while a poll reads its second page, then the newest two remembered follow again in their order: %s emits them',
		async (_name, otherProcess) => {
			const world: World = {
				entries: [],
				order: 'added',
				pageLimit: 100,
				requests: [],
				cursors: true,
			};
			serveWorld(`/2/users/${USER}/followers`, 'pagination_token', world);
			const staticData: IDataObject = {};
			// One workflow, polled again and again.
			const workflow = {
				getWorkflow: () => ({ id: `paged-${String(otherProcess)}-${typeVersion}`, active: true }),
			};
			const old = [nextId(), nextId()];
			world.entries.push(...old.map(user));
			expect(await runPoll(FOLLOWERS, staticData, workflow)).toEqual([]);
			// Pages of one: the poll reads a second page, and two follow before it is answered.
			world.pageLimit = 1;
			const fresh = [nextId(), nextId()];
			world.beforePage = (page) => {
				if (page === 1 && !world.entries.some((e) => e.id === fresh[0]))
					world.entries.push(...fresh.map(user));
			};
			expect(await runPoll(FOLLOWERS, staticData, workflow)).toEqual([]);
			world.beforePage = undefined;
			world.pageLimit = 100;
			// The two newest remembered unfollow and follow again, the older one first: on top, in
			// their order, above the new ones.
			world.entries = [
				...world.entries.filter((e) => !old.includes(String(e.id))),
				...old.map(user),
			];
			let next = poll;
			if (otherProcess)
				jest.isolateModules(() => {
					// eslint-disable-next-line @typescript-eslint/no-require-imports -- a new process: the module's memory starts empty
					next = (require('../../nodes/triggers/poll/poll') as { poll: typeof poll }).poll;
				});
			const built = pollContext(FOLLOWERS, staticData, 'trigger', workflow, typeVersion);
			expect(ids(await next.call(built.context))).toEqual(
				fresh.map((id) => `follow:${id}:${USER}`),
			);
		},
	);

	it('followers: a first read that the guard of 50 pages ends keeps its place; removals then emit no old follower', async () => {
		// The service answers one follower a page.
		const world: World = { entries: [], order: 'added', pageLimit: 1, requests: [] };
		serveWorld(`/2/users/${USER}/followers`, 'pagination_token', world);
		const staticData: IDataObject = {};
		const all = Array.from({ length: 230 }, () => nextId());
		world.entries.push(...all.map(user));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
		// Of the 50 newest (what the first read reached), all but 5 unfollow.
		const read = all.slice(-50);
		const gone = new Set(read.filter((_, i) => i % 10 !== 0));
		world.entries = world.entries.filter((e) => !gone.has(String(e.id)));
		expect(await runPoll(FOLLOWERS, staticData)).toEqual([]);
	});

	it('directMessages: the same credential reconnected to another account: its old messages are not emitted', async () => {
		let account = '7';
		nock(BASE)
			.persist()
			.get('/2/users/me')
			.reply(() => [200, { data: { id: account, username: `me${account}` } }]);
		const events: Record<string, IDataObject[]> = { '7': [], '8': [] };
		const dm = (id: string, sender: string) => ({
			id,
			event_type: 'MessageCreate',
			text: `dm ${id}`,
			sender_id: sender,
			dm_conversation_id: `${sender}-99`,
		});
		nock(BASE)
			.persist()
			.get('/2/dm_events')
			.query(true)
			.reply(() => {
				const list = [...events[account]].reverse();
				return [200, { data: list, meta: { result_count: list.length } }];
			});
		const params = { event: 'directMessages', authentication: CREDENTIAL_TYPES.pkce };
		const staticData: IDataObject = {};
		const extra = connectedTo(() => account, `wf-reconnected-dm-${version}`);
		events['7'].push(dm(nextId(), '99'));
		expect(await runPoll(params, staticData, extra)).toEqual([]);
		const mine = nextId();
		events['7'].push(dm(mine, '99'));
		expect(await runPoll(params, staticData, extra)).toEqual([mine]);
		// The other account has 30 old messages; the credential is reconnected to it (same credential id).
		for (let i = 0; i < 30; i++) events['8'].push(dm(nextId(), '98'));
		account = '8';
		expect(await runPoll(params, staticData, extra)).toEqual([]);
		const theirs = nextId();
		events['8'].push(dm(theirs, '98'));
		expect(await runPoll(params, staticData, extra)).toEqual([theirs]);
	});

	it("mentions: the same credential reconnected to another account reads that account's mentions", async () => {
		let account = '7';
		let asked = 0;
		nock(BASE)
			.persist()
			.get('/2/users/me')
			.reply(() => {
				asked++;
				return [200, { data: { id: account, username: `me${account}` } }];
			});
		const read: string[] = [];
		const mentions: Record<string, IDataObject[]> = {
			'7': [post(nextId())],
			'8': [post(nextId())],
		};
		nock(BASE)
			.persist()
			.get(/\/2\/users\/\d+\/mentions/)
			.query(true)
			.reply((uri) => {
				const owner = /\/2\/users\/(\d+)\//.exec(uri)![1];
				read.push(owner);
				const list = [...mentions[owner]].reverse();
				return [200, { data: list, meta: { result_count: list.length } }];
			});
		const params = { event: 'mentions', authentication: CREDENTIAL_TYPES.pkce };
		const staticData: IDataObject = {};
		const extra = connectedTo(() => account, `wf-reconnected-mentions-${version}`);
		expect(await runPoll(params, staticData, extra)).toEqual([]);
		expect(await runPoll(params, staticData, extra)).toEqual([]);
		// The account is asked for once while the credential stays as it was: an idle poll is one request.
		expect(asked).toBe(1);
		account = '8';
		expect(await runPoll(params, staticData, extra)).toEqual([]);
		expect(asked).toBe(2);
		expect(read.at(-1)).toBe('8');
	});
});
