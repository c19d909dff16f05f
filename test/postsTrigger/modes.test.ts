import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import { poll } from '../../nodes/triggers/poll/poll';
import { BASE } from '../helpers/context';
import type { FakeRead, Served } from './helpers';
import { USER_42_SPACES, nextId, pollContext, serve } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const ME = '7';
const USER = '42';

interface ModeCase {
	event: string;
	parameters: IDataObject;
	read: FakeRead;
	/** A new entry as the service sends it. */
	entry: (id: string) => IDataObject;
	/** The id the item's event_id is made from. */
	eventId: (id: string) => string;
	me?: boolean;
}

const post = (id: string) => ({ id, text: `post ${id}`, author_id: USER });
const LIST = '1146654567674912769';
const POST = '1346889436626259968';
const CONVERSATION = `${ME}-${USER}`;
const user = (id: string) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` });
const CASES: ModeCase[] = [
	{
		event: 'userPosts',
		parameters: {
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
	},
	{
		event: 'mentions',
		parameters: { authentication: CREDENTIAL_TYPES.pkce },
		read: {
			path: `/2/users/${ME}/mentions`,
			sinceId: true,
			tokenParam: 'pagination_token',
			bounds: { min: 5, max: 100 },
		},
		entry: post,
		eventId: (id) => id,
		me: true,
	},
	{
		event: 'search',
		parameters: { authentication: CREDENTIAL_TYPES.appOnly, query: 'autumn sale' },
		read: {
			path: '/2/tweets/search/recent',
			sinceId: true,
			tokenParam: 'next_token',
			bounds: { min: 10, max: 100 },
		},
		entry: post,
		eventId: (id) => id,
	},
	{
		event: 'followers',
		parameters: {
			authentication: CREDENTIAL_TYPES.appOnly,
			user: { __rl: true, mode: 'id', value: USER },
		},
		read: {
			path: `/2/users/${USER}/followers`,
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 1, max: 1000 },
		},
		entry: (id) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` }),
		eventId: (id) => `follow:${id}:${USER}`,
	},
	{
		event: 'likedPosts',
		parameters: {
			authentication: CREDENTIAL_TYPES.hmac,
			user: { __rl: true, mode: 'id', value: USER },
		},
		read: {
			path: `/2/users/${USER}/liked_tweets`,
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 5, max: 100 },
		},
		entry: post,
		eventId: (id) => `favorite:${USER}:${id}`,
	},
	{
		event: 'bookmarks',
		parameters: { authentication: CREDENTIAL_TYPES.pkce },
		read: {
			path: `/2/users/${ME}/bookmarks`,
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 1, max: 100 },
		},
		entry: post,
		eventId: (id) => `bookmark:${ME}:${id}`,
		me: true,
	},
	{
		event: 'directMessages',
		parameters: { authentication: CREDENTIAL_TYPES.pkce },
		read: {
			path: '/2/dm_events',
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 1, max: 100 },
		},
		entry: (id) => ({
			id,
			event_type: 'MessageCreate',
			text: `dm ${id}`,
			sender_id: USER,
			dm_conversation_id: `${ME}-${USER}`,
		}),
		eventId: (id) => id,
		me: true,
	},
	{
		event: 'listPosts',
		parameters: {
			authentication: CREDENTIAL_TYPES.appOnly,
			list: { __rl: true, mode: 'url', value: `https://x.com/i/lists/${LIST}` },
		},
		read: {
			path: `/2/lists/${LIST}/tweets`,
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 1, max: 100 },
		},
		entry: post,
		eventId: (id) => id,
	},
	{
		event: 'listMembers',
		parameters: {
			authentication: CREDENTIAL_TYPES.hmac,
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
	},
	{
		event: 'listFollowers',
		parameters: {
			authentication: CREDENTIAL_TYPES.pkce,
			list: { __rl: true, mode: 'id', value: LIST },
		},
		read: {
			path: `/2/lists/${LIST}/followers`,
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 1, max: 100 },
		},
		entry: user,
		eventId: (id) => `list_follow:${id}:${LIST}`,
	},
	{
		event: 'conversationMessages',
		parameters: { authentication: CREDENTIAL_TYPES.pkce, conversationId: CONVERSATION },
		read: {
			path: `/2/dm_conversations/${CONVERSATION}/dm_events`,
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 1, max: 100 },
		},
		entry: (id) => ({
			id,
			event_type: 'MessageCreate',
			text: `dm ${id}`,
			sender_id: USER,
			dm_conversation_id: CONVERSATION,
		}),
		eventId: (id) => id,
		me: true,
	},
	{
		event: 'quotePosts',
		parameters: {
			authentication: CREDENTIAL_TYPES.appOnly,
			post: { __rl: true, mode: 'url', value: `https://x.com/someone/status/${POST}` },
		},
		read: {
			path: `/2/tweets/${POST}/quote_tweets`,
			sinceId: false,
			tokenParam: 'pagination_token',
			bounds: { min: 10, max: 100 },
		},
		entry: post,
		eventId: (id) => id,
	},
];

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

/** The position, without the rate-limit window the node keeps beside it. */
const withoutWindow = (data: IDataObject) => ({ ...data, rate: undefined });

describe.each(CASES)('Poll Trigger mode $event', (mode) => {
	let served: Served;
	let staticData: IDataObject;
	const run = async (parameters: IDataObject = {}, runMode: 'trigger' | 'manual' = 'trigger') => {
		const built = pollContext(
			{ event: mode.event, ...mode.parameters, ...parameters },
			staticData,
			runMode,
		);
		const result = await poll.call(built.context);
		return { result, built };
	};
	const add = (n: number) => {
		const added: string[] = [];
		for (let i = 0; i < n; i++) {
			const id = nextId();
			served.entries.push(mode.entry(id));
			added.push(id);
		}
		return added;
	};

	beforeEach(() => {
		served = { entries: [], pageLimit: 100, queries: [] };
		staticData = {};
		serve(mode.read, served);
		if (mode.me)
			nock(BASE)
				.persist()
				.get('/2/users/me')
				.reply(200, { data: { id: ME, username: 'me' } });
	});

	it('first poll emits nothing and stores the position; the next emits only newer items, oldest first', async () => {
		const before = add(3);
		const first = await run();
		expect(first.result).toBeNull();
		if (mode.read.sinceId) {
			expect(staticData.newestId).toBe(before[2]);
			expect(served.queries[0].since_id).toBeUndefined();
			expect(Number(served.queries[0].max_results)).toBe(mode.read.bounds.min);
		} else {
			expect(staticData.known).toEqual([...before].reverse());
		}
		const newer = add(2);
		const second = await run();
		expect(ids(second.result)).toEqual(newer.map(mode.eventId));
		if (mode.read.sinceId) {
			expect(served.queries[1].since_id).toBe(before[2]);
			expect(staticData.newestId).toBe(newer[1]);
		}
		for (const item of second.result![0]) expect(item.pairedItem).toEqual({ item: 0 });
		expect(await (await run()).result).toBeNull();
	});

	it('follows page boundaries back to the last seen id', async () => {
		add(4);
		await run();
		served.pageLimit = 3;
		const newer = add(7);
		const { result } = await run();
		expect(ids(result)).toEqual(newer.map(mode.eventId));
		const after = served.queries.slice(1);
		expect(after.length).toBeGreaterThanOrEqual(3);
		expect(after.slice(1).every((q) => q[mode.read.tokenParam] !== undefined)).toBe(true);
	});

	it('holds the per-poll cap: the newest are emitted, older ones skipped and logged', async () => {
		add(2);
		await run();
		const newer = add(7);
		const { result, built } = await run({ maxItems: 4 });
		expect(ids(result)).toEqual(newer.slice(-4).map(mode.eventId));
		expect(
			built.logs.some((l) => l.level === 'warn' && l.message.includes('older ones skipped')),
		).toBe(true);
		const sizes = served.queries.slice(1).map((q) => Number(q.max_results));
		expect(sizes.every((n) => n <= Math.max(4, mode.read.bounds.min))).toBe(true);
		expect(await (await run({ maxItems: 4 })).result).toBeNull();
	});

	it('a 429 emits nothing, keeps the position and logs the reset; the next poll catches up', async () => {
		add(3);
		await run();
		const position = JSON.parse(JSON.stringify(staticData));
		const newer = add(2);
		const reset = Math.floor(Date.now() / 1000) + 600;
		served.rateLimitOnce = reset;
		const limited = await run();
		expect(limited.result).toBeNull();
		expect(withoutWindow(staticData)).toEqual(withoutWindow(position));
		const warning = limited.built.logs.find((l) => l.level === 'warn');
		expect(warning?.message).toContain(new Date(reset * 1000).toISOString());
		// With several poll triggers in one n8n, the line names the node and its workflow.
		expect(warning?.message).toContain('in workflow "Test Workflow"');
		// Until the reset, polls send nothing (each would draw another 429) and emit nothing.
		const asked = served.queries.length;
		expect((await run()).result).toBeNull();
		expect(served.queries.length).toBe(asked);
		const now = jest.spyOn(Date, 'now').mockReturnValue(reset * 1000 + 1);
		try {
			expect(ids((await run()).result)).toEqual(newer.map(mode.eventId));
		} finally {
			now.mockRestore();
		}
	});

	it('a deleted newest item and an empty timeline do not break the position', async () => {
		const first = await run();
		expect(first.result).toBeNull();
		expect(await (await run()).result).toBeNull();
		const one = add(1);
		expect(ids((await run()).result)).toEqual(one.map(mode.eventId));
		const two = add(2);
		expect(ids((await run()).result)).toEqual(two.map(mode.eventId));
		// The newest item read is deleted (or unliked, unbookmarked, unfollowed).
		served.entries = served.entries.filter((e) => e.id !== two[1]);
		expect(await (await run()).result).toBeNull();
		const three = add(2);
		expect(ids((await run()).result)).toEqual(three.map(mode.eventId));
		// Everything gone: nothing emitted, the position stays.
		const position = JSON.parse(JSON.stringify(staticData));
		served.entries = [];
		expect(await (await run()).result).toBeNull();
		expect(withoutWindow(staticData)).toEqual(withoutWindow(position));
	});

	it('a manual test run shows the latest few and leaves the position alone', async () => {
		add(3);
		await run();
		const position = JSON.parse(JSON.stringify(staticData));
		const newer = add(8);
		const { result } = await run({}, 'manual');
		expect(ids(result)).toEqual(newer.slice(-5).map(mode.eventId));
		expect(staticData).toEqual(position);
	});

	it('a manual test run with nothing to show says so instead of showing no output', async () => {
		await expect(run({}, 'manual')).rejects.toThrow(
			/^The service answered, but there are no .+ yet$/,
		);
		expect(staticData.key).toBeUndefined();
	});
});

describe('Poll Trigger mode userSpaces (the endpoint answers all of a creator’s Spaces at once)', () => {
	const spaces: IDataObject[] = [];
	const queries: Array<Record<string, string>> = [];
	let staticData: IDataObject;
	const space = (id: string, state: string) => ({
		id,
		state,
		title: `Space ${id}`,
		creator_id: USER,
	});
	const run = async (runMode: 'trigger' | 'manual' = 'trigger') =>
		await poll.call(pollContext(USER_42_SPACES, staticData, runMode).context);

	beforeEach(() => {
		spaces.length = 0;
		queries.length = 0;
		staticData = {};
		nock(BASE)
			.persist()
			.get('/2/spaces/by/creator_ids')
			.query(true)
			.reply((uri) => {
				const q = Object.fromEntries(new URL(uri, BASE).searchParams.entries());
				queries.push(q);
				// The endpoint takes no max_results and no pagination token.
				if (q.max_results !== undefined || q.pagination_token !== undefined)
					return [400, { title: 'Invalid Request', detail: 'unknown parameter' }];
				const list = [...spaces].reverse();
				return [
					200,
					list.length
						? {
								data: list,
								includes: { users: [{ id: USER, username: 'host' }] },
								meta: { result_count: list.length },
							}
						: { meta: { result_count: 0 } },
				];
			});
	});

	it('asks for the creator’s Spaces and emits each new one once, live ones as started, others as scheduled', async () => {
		spaces.push(space('1DXxyRYNejbKM', 'ended'));
		expect(await run()).toBeNull();
		expect(queries[0].user_ids).toBe(USER);
		expect(queries[0]['space.fields']).toContain('state');
		spaces.push(space('1YqKDqWqdPLsV', 'scheduled'), space('1vOxwrejgYaJB', 'live'));
		const second = await run();
		expect(second![0].map((i) => [i.json.event_type, i.json.event_id, i.json.filter])).toEqual([
			['spaces.scheduled', 'space:1YqKDqWqdPLsV', { user_id: USER }],
			['spaces.start', 'space:1vOxwrejgYaJB', { user_id: USER }],
		]);
		expect(second![0][1].json.includes).toEqual({ users: [{ id: USER, username: 'host' }] });
		expect(await run()).toBeNull();
	});

	it('a manual test run shows the latest Spaces whatever was seen', async () => {
		spaces.push(space('1DXxyRYNejbKM', 'live'));
		await run();
		const result = await run('manual');
		expect(result![0].map((i) => i.json.event_id)).toEqual(['space:1DXxyRYNejbKM']);
	});
});
