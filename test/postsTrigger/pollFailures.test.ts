/**
 * What a failed poll keeps and says (poll.ts, pollOnce's error handling): a 429 that names no reset,
 * the failure's description in the editor's test and in production, and the first poll's log line.
 * Written for mutants that `npm run test:mutation` left alive (bench/results/mutation.md, poll.ts).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import { BASE } from '../helpers/context';
import type { Served } from './helpers';
import {
	nextId,
	pollContext,
	serve,
	USER_42,
	USER_42_FOLLOWERS,
	USER_42_FOLLOWERS_READ,
	USER_42_POSTS,
	USER_42_POSTS_READ,
} from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const USER = USER_42;
const PATH = USER_42_POSTS_READ.path;
const POSTS_READ = USER_42_POSTS_READ;
const USER_POSTS = USER_42_POSTS;
const FOLLOWERS = USER_42_FOLLOWERS;

/** The service answers the next request to `path` with `status` and `body`, and no rate headers. */
function failOnce(path: string, status: number, body: IDataObject) {
	nock(BASE).get(path).query(true).reply(status, body);
}

const caught = async (run: Promise<unknown>) =>
	await run.then(
		() => undefined,
		(error: unknown) => error as Error & { description?: string },
	);

describe('Poll Trigger: what a failed poll keeps and says', () => {
	it('a 429 that names no reset: the poll is skipped with a warning that says so, and the next poll reads on', async () => {
		const staticData: IDataObject = {};
		const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
		served.entries.push({ id: nextId(), text: 'old', author_id: USER });
		// The 429 comes first (nock answers interceptors in the order they were made).
		failOnce(PATH, 429, { title: 'Too Many Requests', type: 'about:blank', status: 429 });
		serve(POSTS_READ, served);
		const first = pollContext(USER_POSTS, staticData);
		expect(await poll.call(first.context)).toBeNull();
		const warnings = first.logs.filter((l) => l.level === 'warn').map((l) => l.message);
		expect(warnings).toEqual([expect.stringContaining('The service named no reset time.')]);
		expect(served.queries).toHaveLength(0);
		// Nothing paused: the next poll sends its request and records the position.
		expect(await poll.call(pollContext(USER_POSTS, staticData).context)).toBeNull();
		expect(served.queries).toHaveLength(1);
	});

	it('a poll that fails keeps what the service said of its window: the next poll waits for the reset; a failed test keeps nothing', async () => {
		const reset = String(Math.ceil(Date.now() / 1000) + 15 * 60);
		const followersPath = `/2/users/${USER}/followers`;
		const answers: Array<[number, IDataObject, Record<string, string>]> = [
			[
				200,
				{ data: [{ id: '7', username: 'u7' }], meta: { result_count: 1 } },
				{ 'x-rate-limit-limit': '15', 'x-rate-limit-remaining': '5', 'x-rate-limit-reset': reset },
			],
			[
				403,
				{ title: 'Forbidden', type: 'about:blank', status: 403 },
				{ 'x-rate-limit-limit': '15', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset },
			],
		];
		let requests = 0;
		nock(BASE)
			.persist()
			.get(followersPath)
			.query(true)
			.reply(() => answers[Math.min(requests++, answers.length - 1)]);
		// A test in the editor that fails keeps nothing, its window included.
		const tested: IDataObject = {};
		expect(
			await caught(poll.call(pollContext(FOLLOWERS, tested, 'manual').context)),
		).toBeUndefined();
		requests = 1;
		expect(await caught(poll.call(pollContext(FOLLOWERS, tested, 'manual').context))).toBeDefined();
		expect(tested).toEqual({});
		// In production: the first poll, then a poll refused (403) whose answer says the window is spent.
		requests = 0;
		const staticData: IDataObject = {};
		expect(await poll.call(pollContext(FOLLOWERS, staticData).context)).toBeNull();
		expect(await caught(poll.call(pollContext(FOLLOWERS, staticData).context))).toBeDefined();
		expect(requests).toBe(2);
		// The next poll sends nothing until the reset.
		expect(await poll.call(pollContext(FOLLOWERS, staticData).context)).toBeNull();
		expect(requests).toBe(2);
	});

	it('a failed poll in production says it kept its place, in the description alone when the service gave none', async () => {
		const staticData: IDataObject = {};
		failOnce(PATH, 403, { title: 'Forbidden', type: 'about:blank', status: 403 });
		const error = await caught(poll.call(pollContext(USER_POSTS, staticData).context));
		expect(error?.description).toBe(
			'This poll failed and kept its place: the next poll reads what this one missed.',
		);
		// With the service's own detail: both, one sentence after the other.
		failOnce(PATH, 400, {
			title: 'Invalid Request',
			detail: 'One or more parameters to your request was invalid.',
			type: 'https://api.test.local/2/problems/invalid-request',
		});
		const detailed = await caught(poll.call(pollContext(USER_POSTS, staticData).context));
		expect(detailed?.description).toMatch(
			/invalid\. This poll failed and kept its place: the next poll reads what this one missed\.$/,
		);
	});

	it('a failed test in the editor does not speak of a kept place (a test run keeps none)', async () => {
		failOnce(PATH, 400, {
			title: 'Invalid Request',
			detail: 'One or more parameters to your request was invalid.',
			type: 'https://api.test.local/2/problems/invalid-request',
		});
		const error = await caught(poll.call(pollContext(USER_POSTS, {}, 'manual').context));
		expect(error).toBeDefined();
		expect(error?.description ?? '').not.toContain('kept its place');
	});

	it('the first poll’s log line names the position: the newest id, or how many ids it remembers', async () => {
		const posts: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
		posts.entries.push({ id: nextId(), text: 'old', author_id: USER });
		const newest = nextId();
		posts.entries.push({ id: newest, text: 'old', author_id: USER });
		serve(POSTS_READ, posts);
		const byId = pollContext(USER_POSTS, {});
		expect(await poll.call(byId.context)).toBeNull();
		expect(byId.logs.map((l) => l.message)).toContainEqual(
			expect.stringContaining(`first poll recorded the position (${newest})`),
		);

		const followers: Served = { entries: [], pageLimit: 100, queries: [], order: 'added' };
		for (let i = 0; i < 3; i++) followers.entries.push({ id: nextId(), name: 'u', username: 'u' });
		serve(USER_42_FOLLOWERS_READ, followers);
		const byList = pollContext(FOLLOWERS, {});
		expect(await poll.call(byList.context)).toBeNull();
		expect(byList.logs.map((l) => l.message)).toContainEqual(
			expect.stringContaining('first poll recorded the position (3 ids)'),
		);
	});
});
