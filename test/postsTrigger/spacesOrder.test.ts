/**
 * New Spaces of a User from version 1.1 (issue 51, the mutants of spaceChanges and byCreation): a Space
 * emitted as started or ended once each, only on the changes the contract's states make (live,
 * scheduled, ended); the states it remembers kept for the Spaces of its window only; and what it emits
 * in one poll in the order the Spaces were created (n8n gets them oldest first), the service's order
 * kept where created_at does not decide. And, in the since_id modes, where the next poll reads on after
 * a poll cut short (oldestOf): below the lowest id read, whatever order the page came in.
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { KNOWN_IDS, poll } from '../../nodes/triggers/poll/poll';
import type { Served } from './helpers';
import {
	USER_42_POSTS,
	USER_42_POSTS_READ,
	USER_42_SPACES,
	nextId,
	pollContext,
	serve,
	serveSpaces,
} from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const USER = '42';

/** The Spaces the endpoint answers, in its order (the contract gives the answer no order). */
const answer: IDataObject[] = [];
let staticData: IDataObject;

/** A Space as the service answers it; `minute`: its created_at, left out when undefined. */
function space(id: string, state: string, minute?: number): IDataObject {
	const entry: IDataObject = { id, state, title: `Space ${id}`, creator_id: USER };
	if (minute !== undefined)
		entry.created_at = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
	return entry;
}

function setState(id: string, state: string): void {
	answer.find((s) => s.id === id)!.state = state;
}

function kinds(result: INodeExecutionData[][] | null): Array<[string, string]> {
	// event_id: space:<id>:<state>
	return (result?.[0] ?? []).map((i) => [
		String(i.json.event_type),
		String(i.json.event_id).split(':')[1],
	]);
}

const run = async () =>
	kinds(await poll.call(pollContext(USER_42_SPACES, staticData, 'trigger', {}, 1.1).context));

/** The Spaces whose state the trigger keeps between polls (its saved static data). */
const remembered = () => Object.keys((staticData.spaces as IDataObject | undefined) ?? {});

beforeEach(() => {
	answer.length = 0;
	staticData = {};
	serveSpaces(answer);
});

describe('New Spaces of a User: an answer longer than the window of 200 remembered ids', () => {
	it('250 Spaces when the workflow is published: none of them is emitted later, and a new one once', async () => {
		// The contract puts no bound on how many Spaces the answer holds; a 1.1 trigger remembers them all.
		for (let i = 0; i < 250; i++)
			answer.push(space(`1spc${String(i).padStart(5, '0')}`, 'scheduled', 1));
		expect(await run()).toEqual([]);
		expect(await run()).toEqual([]);
		answer.push(space('1NewSpaceAbcd', 'scheduled', 2));
		expect(await run()).toEqual([['spaces.scheduled', '1NewSpaceAbcd']]);
		expect(await run()).toEqual([]);
		expect(await run()).toEqual([]);
		// Nothing is kept below the window: the whole answer is the window.
		expect(staticData).not.toHaveProperty('below');
	});
});

describe('New Spaces of a User 1.1: starts and ends', () => {
	it('a Space seen scheduled and then live is emitted once as started, then once as ended', async () => {
		expect(await run()).toEqual([]);
		answer.push(space('1YqKDqWqdPLsV', 'scheduled', 1));
		expect(await run()).toEqual([['spaces.scheduled', '1YqKDqWqdPLsV']]);
		setState('1YqKDqWqdPLsV', 'live');
		expect(await run()).toEqual([['spaces.start', '1YqKDqWqdPLsV']]);
		expect(await run()).toEqual([]);
		setState('1YqKDqWqdPLsV', 'ended');
		expect(await run()).toEqual([['spaces.end', '1YqKDqWqdPLsV']]);
		expect(await run()).toEqual([]);
	});

	it('a new Space already live is emitted as new only, not also as started', async () => {
		answer.push(space('1DXxyRYNejbKM', 'scheduled', 1));
		expect(await run()).toEqual([]);
		answer.push(space('1vOxwrejgYaJB', 'live', 2));
		expect(await run()).toEqual([['spaces.start', '1vOxwrejgYaJB']]);
		expect(await run()).toEqual([]);
		// A new one that has already ended: once, as ended.
		answer.push(space('1OwxWzVkmXWJQ', 'ended', 3));
		expect(await run()).toEqual([['spaces.end', '1OwxWzVkmXWJQ']]);
		expect(await run()).toEqual([]);
	});

	it('a Space seen live and then answered scheduled is not emitted as a change', async () => {
		answer.push(space('1YqKDqWqdPLsV', 'live', 1));
		expect(await run()).toEqual([]);
		setState('1YqKDqWqdPLsV', 'scheduled');
		expect(await run()).toEqual([]);
		expect(await run()).toEqual([]);
	});

	it('a Space that ended leaves no remembered state behind', async () => {
		expect(await run()).toEqual([]);
		answer.push(space('1YqKDqWqdPLsV', 'scheduled', 1), space('1vOxwrejgYaJB', 'live', 2));
		await run();
		expect(remembered().sort()).toEqual(['1YqKDqWqdPLsV', '1vOxwrejgYaJB']);
		setState('1YqKDqWqdPLsV', 'ended');
		setState('1vOxwrejgYaJB', 'ended');
		expect(await run()).toEqual([
			['spaces.end', '1YqKDqWqdPLsV'],
			['spaces.end', '1vOxwrejgYaJB'],
		]);
		expect(remembered()).toEqual([]);
	});

	it('the remembered states are kept for the Spaces of the window only: scheduled Spaces that leave the answer do not pile up', async () => {
		expect(await run()).toEqual([]);
		// Each poll, 100 new scheduled Spaces, and those of the poll before gone from the answer (a
		// scheduled Space cancelled): the window keeps the newest KNOWN_IDS ids.
		for (let batch = 0; batch < 4; batch++) {
			answer.length = 0;
			for (let i = 0; i < 100; i++)
				answer.push(space(`b${batch}s${String(i).padStart(3, '0')}`, 'scheduled'));
			expect(await run()).toHaveLength(100);
		}
		const window = new Set(staticData.known as string[]);
		expect(window.size).toBe(KNOWN_IDS);
		expect(remembered().length).toBeLessThanOrEqual(KNOWN_IDS);
		expect(remembered().every((id) => window.has(id))).toBe(true);
		// The newest batch is still watched: its Spaces are emitted when they start.
		setState('b3s000', 'live');
		expect(await run()).toEqual([['spaces.start', 'b3s000']]);
	});
});

describe('New Spaces of a User 1.1: the order of one poll', () => {
	it('newest created first; Spaces created at the same time keep the service’s order', async () => {
		expect(await run()).toEqual([]);
		answer.push(
			space('1AAAAAAAAAAAA', 'scheduled', 1),
			space('1BBBBBBBBBBBB', 'scheduled', 1),
			space('1CCCCCCCCCCCC', 'scheduled', 2),
		);
		// Newest first, the two of minute 1 in the service's order: C, A, B. n8n gets the poll's items
		// oldest first (the newest-first list reversed).
		expect((await run()).map(([, id]) => id)).toEqual([
			'1BBBBBBBBBBBB',
			'1AAAAAAAAAAAA',
			'1CCCCCCCCCCCC',
		]);
	});

	it('Spaces without created_at keep their place in the service’s order', async () => {
		expect(await run()).toEqual([]);
		answer.push(
			space('1UUUUUUUUUUUU', 'scheduled'),
			space('1XXXXXXXXXXXX', 'scheduled', 1),
			space('1YYYYYYYYYYYY', 'scheduled', 2),
			space('1VVVVVVVVVVVV', 'scheduled'),
		);
		// Newest first: U first and V last as answered, Y (minute 2) before X (minute 1) between them;
		// n8n gets them oldest first.
		expect((await run()).map(([, id]) => id)).toEqual([
			'1VVVVVVVVVVVV',
			'1XXXXXXXXXXXX',
			'1YYYYYYYYYYYY',
			'1UUUUUUUUUUUU',
		]);
	});
});

describe('New Spaces of a User 1.1: the order around a Space without created_at', () => {
	it('a Space without created_at between two that have one: the two still come newest first around it', async () => {
		expect(await run()).toEqual([]);
		answer.push(
			space('1XXXXXXXXXXXX', 'scheduled', 1),
			space('1UUUUUUUUUUUU', 'scheduled'),
			space('1YYYYYYYYYYYY', 'scheduled', 2),
		);
		// Newest first: Y (minute 2), U in its place, X (minute 1); n8n gets them oldest first.
		expect((await run()).map(([, id]) => id)).toEqual([
			'1XXXXXXXXXXXX',
			'1UUUUUUUUUUUU',
			'1YYYYYYYYYYYY',
		]);
	});
});

describe('user posts: the poll after one cut short', () => {
	it('reads on below the lowest id the cut short poll read, when its page was not in id order: each post once', async () => {
		// Assumed: the contract gives the user posts timeline no order. Two posts of one second may come
		// in either order: here the fourth and fifth of the page are answered the lower id first.
		nock.cleanAll();
		const post = (id: string) => ({ id, text: `post ${id}`, author_id: '42' });
		const served: Served = {
			entries: [post(nextId())],
			pageLimit: 100,
			queries: [],
			order: 'added',
		};
		serve(USER_42_POSTS_READ, served);
		let budget: number | undefined;
		const posts = async () =>
			((await poll.call(
				pollContext(USER_42_POSTS, staticData, 'trigger', {
					getPollBudgetMs: () => budget,
				}).context,
			)) ?? [[]])[0].map((i) => String(i.json.event_id));
		expect(await posts()).toEqual([]);
		const p = Array.from({ length: 7 }, () => nextId());
		// Answered last entry first: p7, p6, p5, p3, p4, p2, p1.
		served.entries.push(...[p[0], p[1], p[3], p[2], p[4], p[5], p[6]].map(post));
		served.pageLimit = 5;
		// n8n's poll time spent at the first page: the read stops there, p2 and p1 left for the next poll.
		budget = -2;
		const first = await posts();
		expect([...first].sort()).toEqual([p[2], p[3], p[4], p[5], p[6]].sort());
		budget = undefined;
		expect(await posts()).toEqual([p[0], p[1]]);
		expect(await posts()).toEqual([]);
	});
});
