/**
 * The Poll Trigger under n8n 2.40.7's durable poll scheduler (issue 52): every poll ends within the
 * budget n8n gives it (IPollFunctions.getPollBudgetMs), the first one included.
 *
 * What n8n does, from its source (n8n 2.40.7, as the e2e suite installs it):
 * - n8n/dist/scheduling/poll-trigger-node/poll-trigger-task-handler.js: a tick races the poll against
 *   N8N_SCHEDULER_POLL_TIMEOUT (45 s); past it the result is dropped and the node backed off, while the
 *   poll itself goes on.
 * - n8n/dist/workflows/triggers/trigger-execution-context.factory.js (getExecutePollFunctions): a tick's
 *   budget is min(poll timeout, lease) less max(20 %, 5 s), 36 s by default; other polls get
 *   PollContext's default of 5 minutes (n8n-core/dist/execution-engine/node-execution-context/poll-context.js).
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/PlatformPostsTrigger/poll';
import { CREDENTIAL_TYPES } from '../../nodes/shared/transport';
import type { FakeRead, Served } from './helpers';
import { nextId, pollContext, serve } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const USER = '42';

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

const FOLLOWERS_READ: FakeRead = {
	path: `/2/users/${USER}/followers`,
	sinceId: false,
	tokenParam: 'pagination_token',
	bounds: { min: 1, max: 1000 },
};
const POSTS_READ: FakeRead = {
	path: `/2/users/${USER}/tweets`,
	sinceId: true,
	tokenParam: 'pagination_token',
	bounds: { min: 5, max: 100 },
};
const FOLLOWERS = {
	event: 'followers',
	authentication: CREDENTIAL_TYPES.appOnly,
	user: { __rl: true, mode: 'id', value: USER },
};
const USER_POSTS = {
	event: 'userPosts',
	authentication: CREDENTIAL_TYPES.appOnly,
	user: { __rl: true, mode: 'id', value: USER },
};

async function timed<T>(
	run: () => Promise<T>,
): Promise<{ ms: number; value?: T; error?: unknown }> {
	const t0 = Date.now();
	try {
		const value = await run();
		return { ms: Date.now() - t0, value };
	} catch (error) {
		return { ms: Date.now() - t0, error };
	}
}

describe("Poll Trigger: every poll ends within n8n's poll budget", () => {
	it('a first poll of a slow list stops within the budget, keeps what it read, and later polls emit each new follower once and nothing old', async () => {
		const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'added' };
		for (let i = 0; i < 300; i++) served.entries.push({ id: nextId(), name: 'u', username: 'u' });
		const old = new Set(served.entries.map((e) => String(e.id)));
		serve(FOLLOWERS_READ, served);
		const staticData: IDataObject = {};
		const budget = 600;
		const run = () =>
			poll.call(
				pollContext({ ...FOLLOWERS, maxItems: 100 }, staticData, 'trigger', {
					getPollBudgetMs: () => budget,
				}).context,
			);
		// Every page takes 400 ms: the first poll's three pages would take 1.2 s, twice the budget.
		served.delayMs = () => 400;
		const first = await timed(run);
		expect(first.error).toBeUndefined();
		expect(first.value).toBeNull();
		expect(first.ms).toBeLessThan(budget);
		expect(served.queries).toHaveLength(1);
		// The service is fast again; three follow, and one of the old ones below the first page.
		served.delayMs = undefined;
		const added = [nextId(), nextId(), nextId()];
		for (const id of added) served.entries.push({ id, name: 'n', username: 'n' });
		const emitted: string[] = [];
		for (let i = 0; i < 3; i++) emitted.push(...ids(await run()));
		expect(emitted).toEqual(added.map((id) => `follow:${id}:${USER}`));
		expect(emitted.filter((e) => old.has(e.split(':')[1]))).toEqual([]);
	});

	it('a page that hangs past the budget ends the poll by the budget with the pages already read; the next poll emits the rest, each once', async () => {
		const served: Served = { entries: [], pageLimit: 20, queries: [], order: 'id' };
		for (let i = 0; i < 5; i++) served.entries.push({ id: nextId(), text: 'old', author_id: USER });
		serve(POSTS_READ, served);
		const staticData: IDataObject = {};
		const budget = 800;
		const run = () =>
			poll.call(
				pollContext({ ...USER_POSTS, maxItems: 100 }, staticData, 'trigger', {
					getPollBudgetMs: () => budget,
				}).context,
			);
		expect(await run()).toBeNull();
		const fresh: string[] = [];
		for (let i = 0; i < 50; i++) {
			const id = nextId();
			fresh.push(id);
			served.entries.push({ id, text: 'new', author_id: USER });
		}
		// The second page takes 5 s (the transport's own timeout is 60 s): the poll gives up on it at the budget.
		served.delayMs = (q) => (q.pagination_token ? 5_000 : 0);
		const cut = await timed(run);
		expect(cut.error).toBeUndefined();
		expect(cut.ms).toBeLessThan(budget + 300);
		const emitted = ids(cut.value as INodeExecutionData[][]);
		expect(emitted).toHaveLength(20);
		served.delayMs = undefined;
		for (let i = 0; i < 4; i++) emitted.push(...ids(await run()));
		expect([...emitted].sort()).toEqual([...fresh].sort());
		expect(new Set(emitted).size).toBe(fresh.length);
	});

	it('a first poll whose only request outlasts the budget fails by the budget and records nothing; the next poll records the position', async () => {
		const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
		served.entries.push({ id: nextId(), text: 'old', author_id: USER });
		serve(POSTS_READ, served);
		const staticData: IDataObject = {};
		const budget = 500;
		const run = () =>
			poll.call(
				pollContext(USER_POSTS, staticData, 'trigger', { getPollBudgetMs: () => budget }).context,
			);
		served.delayMs = () => 3_000;
		const slow = await timed(run);
		expect(slow.error).toBeDefined();
		expect(slow.ms).toBeLessThan(budget + 300);
		expect(staticData).toEqual({});
		served.delayMs = undefined;
		expect(await run()).toBeNull();
		const id = nextId();
		served.entries.push({ id, text: 'new', author_id: USER });
		expect(ids(await run())).toEqual([id]);
	});
});
