/**
 * Regressions of the Poll Trigger's position (each new item once): items that come back to the top of
 * a list, Spaces answered in no order, polls cut short by n8n's poll time, the first poll's window and
 * a credential switched to another account.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { BASE } from '../helpers/context';
import type { Served, Watched } from './helpers';
import { USER_42_SPACES, ids, nextId, pollContext, serve, watch } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const USER = '42';
const LIST = '1146654567674912769';
const user = (id: string) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` });
const post = (id: string) => ({ id, text: `post ${id}`, author_id: USER });

const FOLLOWERS: Watched = {
	parameters: {
		event: 'followers',
		authentication: CREDENTIAL_TYPES.appOnly,
		user: { __rl: true, mode: 'id', value: USER },
	},
	read: {
		path: `/2/users/${USER}/followers`,
		sinceId: false,
		tokenParam: 'pagination_token',
		bounds: { min: 1, max: 1000 },
	},
	entry: user,
	eventId: (id) => `follow:${id}:${USER}`,
};
const LIST_MEMBERS: Watched = {
	parameters: {
		event: 'listMembers',
		authentication: CREDENTIAL_TYPES.appOnly,
		list: { __rl: true, mode: 'id', value: LIST },
	},
	read: {
		path: `/2/lists/${LIST}/members`,
		sinceId: false,
		tokenParam: 'pagination_token',
		bounds: { min: 1, max: 100 },
	},
	entry: user,
	eventId: (id) => `list_member:${LIST}:${id}`,
};
const USER_POSTS: Watched = {
	parameters: {
		event: 'userPosts',
		authentication: CREDENTIAL_TYPES.appOnly,
		user: { __rl: true, mode: 'id', value: USER },
	},
	read: {
		path: `/2/users/${USER}/tweets`,
		sinceId: true,
		tokenParam: 'pagination_token',
		bounds: { min: 5, max: 100 },
	},
	entry: post,
	eventId: (id) => id,
};

describe('Poll Trigger position', () => {
	it.each([
		['followers', 1, FOLLOWERS],
		['listMembers', 1, LIST_MEMBERS],
		['followers', 1.2, FOLLOWERS],
		['listMembers', 1.2, LIST_MEMBERS],
	])(
		'%s (version %s): an item removed and added again does not stop the read; the new one behind it is emitted once',
		async (_name, version, watched) => {
			// The case: remembered [F3, F2, F1]; X follows, then F1 unfollows and follows again.
			const w = watch(watched, version);
			const [f1] = w.add(3);
			expect((await w.run()).ids).toEqual([]);
			const [x] = w.add(1);
			w.readd(f1);
			expect((await w.run()).ids).toEqual([watched.eventId(x)]);
			expect((await w.run()).ids).toEqual([]);
			// With a full run of remembered ids behind them as well.
			const older = w.add(12);
			expect((await w.run()).ids).toEqual(older.map(watched.eventId));
			const [y] = w.add(1);
			w.readd(older[0]);
			w.readd(older[1]);
			expect((await w.run()).ids).toEqual([watched.eventId(y)]);
			expect((await w.run()).ids).toEqual([]);
		},
	);

	it('version 1.2: an idle poll reads a first page of 2, and reads on only where the top changed', async () => {
		const w = watch(FOLLOWERS, 1.2);
		w.add(12);
		expect((await w.run()).ids).toEqual([]);
		const asked = () => w.served.queries.splice(0).map((q) => Number(q.max_results));
		asked();
		expect((await w.run()).ids).toEqual([]);
		expect(asked()).toEqual([2]);
		// The newest follower left: the top changed, the read goes on to a run of 10 remembered.
		w.remove(w.served.entries[w.served.entries.length - 1].id as string);
		expect((await w.run()).ids).toEqual([]);
		expect(asked()).toEqual([2, 8]);
		// That read sent two requests: what came on top while it asked the second was behind it, so the
		// next poll does not stop at a first page of the newest remembered: it reads 10, in one request.
		expect((await w.run()).ids).toEqual([]);
		expect(asked()).toEqual([10]);
		expect((await w.run()).ids).toEqual([]);
		expect(asked()).toEqual([2]);
		// The newest remembered unfollowed and followed again above a new one: the top changed; the page
		// after it is as large as the first page before version 1.2.
		const [x] = w.add(1);
		const top = w.served.entries[w.served.entries.length - 2].id as string;
		w.readd(top);
		expect((await w.run()).ids).toEqual([FOLLOWERS.eventId(x)]);
		expect(asked()).toEqual([2, 10]);
		expect((await w.run()).ids).toEqual([]);
		expect(asked()).toEqual([10]);
		expect((await w.run()).ids).toEqual([]);
		expect(asked()).toEqual([2]);
	});

	it.each([
		[1.1, 'at once'],
		[1.2, 'at the next poll whose top changed'],
	])(
		'version %s: the two newest remembered back on top in their order above a new follower: emitted %s',
		async (version) => {
			const w = watch(FOLLOWERS, version);
			w.add(12);
			expect((await w.run()).ids).toEqual([]);
			const newest = () => w.served.entries.slice(-2).map((e) => String(e.id));
			const [second, first] = newest();
			const [x] = w.add(1);
			// Unfollowed and followed again, the older of the two first: back on top in the same order.
			w.readd(second);
			w.readd(first);
			expect(newest()).toEqual([second, first]);
			if (version < 1.2) {
				expect((await w.run()).ids).toEqual([FOLLOWERS.eventId(x)]);
				return;
			}
			// The documented limit of 1.2: the top is the newest remembered, in order; nothing is read further.
			expect((await w.run()).ids).toEqual([]);
			expect((await w.run()).ids).toEqual([]);
			// A new follower changes the top: the read goes past the two and emits both, oldest first, once.
			const [y] = w.add(1);
			expect((await w.run()).ids).toEqual([FOLLOWERS.eventId(x), FOLLOWERS.eventId(y)]);
			expect((await w.run()).ids).toEqual([]);
		},
	);

	it('userSpaces: the answer has no order; every Space not seen before is emitted once', async () => {
		const spaces: IDataObject[] = [];
		nock(BASE)
			.persist()
			.get('/2/spaces/by/creator_ids')
			.query(true)
			.reply(() => [200, { data: spaces, meta: { result_count: spaces.length } }]);
		const staticData: IDataObject = {};
		const run = async () => ids(await poll.call(pollContext(USER_42_SPACES, staticData).context));
		const space = (id: string, createdAt: string) => ({
			id,
			state: 'scheduled',
			creator_id: USER,
			created_at: createdAt,
		});
		spaces.push(space('1DXxyRYNejbKM', '2026-01-01T00:00:00.000Z'));
		expect(await run()).toEqual([]);
		// Older Spaces first in the answer, new ones after them: each new one still counts.
		spaces.push(
			space('1vOxwrejgYaJB', '2026-01-03T00:00:00.000Z'),
			space('1YqKDqWqdPLsV', '2026-01-02T00:00:00.000Z'),
		);
		expect(await run()).toEqual(['space:1YqKDqWqdPLsV', 'space:1vOxwrejgYaJB']);
		spaces.reverse();
		expect(await run()).toEqual([]);
	});

	it.each([
		['followers', FOLLOWERS],
		['userPosts', USER_POSTS],
	])(
		'%s: a poll cut short by the poll time emits what it read and the next poll the older rest, each once',
		async (_name, watched) => {
			const w = watch(watched);
			w.add(1);
			await w.run();
			w.served.pageLimit = 3;
			const newer = w.add(7);
			w.setBudget(-2);
			const cut = await w.run();
			expect(cut.ids).toEqual(newer.slice(-3).map(watched.eventId));
			// It was n8n's poll time, not the cap, that stopped the read.
			expect(cut.logs.some((l) => l.message.includes("within n8n's poll time"))).toBe(true);
			expect(cut.logs.some((l) => l.message.includes('Max Items'))).toBe(false);
			w.setBudget(undefined);
			const rest = await w.run();
			expect(rest.ids).toEqual(newer.slice(0, 4).map(watched.eventId));
			const later = w.add(2);
			expect((await w.run()).ids).toEqual(later.map(watched.eventId));
			expect((await w.run()).ids).toEqual([]);
		},
	);

	it('userPosts: polls cut short again and again still emit every new post once', async () => {
		const w = watch(USER_POSTS);
		w.add(1);
		await w.run();
		w.served.pageLimit = 5;
		const newer = w.add(17);
		w.setBudget(-2);
		const emitted: string[] = [];
		for (let i = 0; i < 6; i++) emitted.push(...(await w.run()).ids);
		expect([...emitted].sort()).toEqual([...newer].sort());
	});

	it('followers: the first poll remembers the window later polls rely on, not just 10 ids', async () => {
		const w = watch(FOLLOWERS);
		const before = w.add(30);
		await w.run();
		expect(w.staticData.known).toHaveLength(30);
		// The ten newest followers leave; one new one arrives: only that one is new.
		for (const id of before.slice(-10)) w.remove(id);
		const [x] = w.add(1);
		expect((await w.run()).ids).toEqual([FOLLOWERS.eventId(x)]);
	});

	it('bookmarks: another credential (another account) starts its own position and looks up its own id', async () => {
		const accounts: Record<string, string> = { a: '7', b: '8' };
		let credentialId = 'a';
		nock(BASE)
			.persist()
			.get('/2/users/me')
			.reply(() => [200, { data: { id: accounts[credentialId], username: 'me' } }]);
		const bookmarks: Record<string, IDataObject[]> = { '7': [], '8': [] };
		const paths: string[] = [];
		nock(BASE)
			.persist()
			.get(/\/2\/users\/\d+\/bookmarks/)
			.query(true)
			.reply((uri) => {
				const owner = /\/2\/users\/(\d+)\//.exec(uri)![1];
				paths.push(owner);
				const list = [...bookmarks[owner]].reverse();
				return [200, { data: list, meta: { result_count: list.length } }];
			});
		const staticData: IDataObject = {};
		const run = async () => {
			const built = pollContext(
				{ event: 'bookmarks', authentication: CREDENTIAL_TYPES.pkce },
				staticData,
			);
			const context = built.context as { getNode: () => IDataObject };
			const node = context.getNode();
			context.getNode = () => ({
				...node,
				credentials: { platformOAuth2Api: { id: credentialId, name: `Account ${credentialId}` } },
			});
			return ids(await poll.call(built.context as never));
		};
		bookmarks['7'].push(post(nextId()));
		expect(await run()).toEqual([]);
		const a = nextId();
		bookmarks['7'].push(post(a));
		expect(await run()).toEqual([`bookmark:7:${a}`]);
		// Account b's bookmarks from before the switch are not new.
		bookmarks['8'].push(post(nextId()), post(nextId()));
		credentialId = 'b';
		expect(await run()).toEqual([]);
		expect(paths[paths.length - 1]).toBe('8');
		const b = nextId();
		bookmarks['8'].push(post(b));
		expect(await run()).toEqual([`bookmark:8:${b}`]);
	});

	it('bookmarks: a position kept before positions named the account is taken over, not started again', async () => {
		nock(BASE)
			.persist()
			.get('/2/users/me')
			.reply(200, { data: { id: '7', username: 'me' } });
		const old = post(nextId());
		const list = [old];
		nock(BASE)
			.persist()
			.get('/2/users/7/bookmarks')
			.query(true)
			.reply(() => [200, { data: [...list].reverse(), meta: { result_count: list.length } }]);
		const staticData: IDataObject = {
			key: JSON.stringify(['bookmarks', CREDENTIAL_TYPES.pkce, '', []]),
			known: [String(old.id)],
			subject: { ref: `me:${CREDENTIAL_TYPES.pkce}`, id: '7' },
		};
		const added = post(nextId());
		list.push(added);
		const result = await poll.call(
			pollContext({ event: 'bookmarks', authentication: CREDENTIAL_TYPES.pkce }, staticData)
				.context,
		);
		expect(ids(result)).toEqual([`bookmark:7:${String(added.id)}`]);
	});
});

describe('Poll Trigger: the first poll of a long list', () => {
	it('remembers the newest 200 ids in its window and the next 20 below it, each once', async () => {
		const served: Served = { entries: [], pageLimit: 1000, queries: [], order: 'added' };
		for (let i = 0; i < 300; i++) served.entries.push(user(nextId()));
		serve(FOLLOWERS.read, served);
		const staticData: IDataObject = {};
		expect(await poll.call(pollContext(FOLLOWERS.parameters, staticData).context)).toBeNull();
		const newestFirst = served.entries.map((e) => String(e.id)).reverse();
		expect(staticData.known).toEqual(newestFirst.slice(0, 200));
		expect(staticData.below).toEqual(newestFirst.slice(200, 220));
	});
});
