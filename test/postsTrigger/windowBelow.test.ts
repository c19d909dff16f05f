/**
 * The Poll Trigger's window of remembered ids and the 20 ids just below it (issue 51's mutation testing
 * of poll.ts's knownIdsPoll): many of the newest remembered followers removed at once, the cap's stop id
 * kept while remembered, version 1.2's `paged`, and the depth to which the window is read again. Each
 * drives the real poll() against followers served newest-added first.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import {
	nextId,
	pollContext,
	serve,
	USER_42,
	USER_42_FOLLOWERS,
	USER_42_FOLLOWERS_READ,
	type Served,
} from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const user = (id: string) => ({ id, name: `User ${id}`, username: `u${id.slice(-6)}` });
const follow = (id: string) => `follow:${id}:${USER_42}`;

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

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
