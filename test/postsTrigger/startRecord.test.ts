/**
 * The position a first poll records in the workflow's global static data (poll.ts, StartRecord): which
 * node's record a poll without a position of its own reads on from, what a record must hold, the
 * field's name in saved workflows, and when a position counts as unchanged.
 *
 * n8n gives each node its own static data (`getWorkflowStaticData('node')`, kept under the node's name)
 * and one global object per workflow (`getWorkflowStaticData('global')`): two Poll Trigger nodes of one
 * workflow share the global one (n8n-workflow's Workflow.getStaticData).
 */
import nock from 'nock';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { poll } from '../../nodes/triggers/poll/poll';
import type { Served } from './helpers';
import { nextId, pollContext, serve, USER_42, USER_42_POSTS, USER_42_POSTS_READ } from './helpers';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

let workflows = 0;

/** A workflow of n8n: its global static data, shared by its nodes. */
function workflow() {
	const id = `wf-start-${++workflows}`;
	const global: IDataObject = {};
	/** One poll of the node `node` (id and name) with `nodeData` as its own static data. */
	const run = async (node: { id: string; name: string }, nodeData: IDataObject, extra = {}) =>
		await poll.call(
			pollContext(USER_42_POSTS, nodeData, 'trigger', {
				getNode: () => ({
					...node,
					type: 'n8n-nodes-platform.platformPostsTrigger',
					typeVersion: 1,
					parameters: USER_42_POSTS,
					position: [0, 0],
				}),
				getWorkflow: () => ({ id, name: 'Start records', active: true }),
				getWorkflowStaticData: (type: string) => (type === 'global' ? global : nodeData),
				...extra,
			}).context,
		);
	return { global, run };
}

/** User 42's posts, three of them old. */
function posts() {
	const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
	const add = () => {
		const id = nextId();
		served.entries.push({ id, text: 'post', author_id: USER_42 });
		return id;
	};
	for (let i = 0; i < 3; i++) add();
	serve(USER_42_POSTS_READ, served);
	return { add };
}

/** The poll n8n runs when the workflow is published: PollContext's default budget (5 minutes). */
const PUBLISHING = { getPollBudgetMs: () => 300_000 };

const A = { id: 'node-a', name: 'Posts A' };
const B = { id: 'node-b', name: 'Posts B' };

describe('Poll Trigger: the position recorded when a workflow is published', () => {
	it('two Poll Trigger nodes of one workflow each read on from their own record', async () => {
		const service = posts();
		const { run } = workflow();
		expect(await run(A, {}, PUBLISHING)).toBeNull();
		const between = service.add();
		expect(await run(B, {}, PUBLISHING)).toBeNull();
		// A's own position is not kept (n8n's poll at publishing commits nothing): it reads on from the
		// position it recorded, older than B's, so the post published in between runs.
		expect(ids(await run(A, {}))).toEqual([between]);
	});

	it("a node added later under a removed node's name starts afresh: the removed node's record is not its own", async () => {
		const service = posts();
		const { run } = workflow();
		expect(await run({ id: 'node-old', name: 'Posts' }, {}, PUBLISHING)).toBeNull();
		service.add();
		// The node is removed and another added with the same name (a new node id): what was published
		// before it was added is not new to it.
		const fresh = { id: 'node-new', name: 'Posts' };
		expect(await run(fresh, {}, PUBLISHING)).toBeNull();
		const newer = service.add();
		expect(ids(await run(fresh, {}))).toEqual([newer]);
	});

	it('a record without its position (the global static data edited, or written by another build) is not read on from', async () => {
		const service = posts();
		const { global, run } = workflow();
		expect(await run(A, {}, PUBLISHING)).toBeNull();
		const starts = global.platformPollTriggerStarts as IDataObject;
		delete (starts[`${A.id}:${A.name}`] as IDataObject).position;
		service.add();
		// No position of its own and no usable record: a first poll, which records the position again.
		const data: IDataObject = {};
		expect(await run(A, data, PUBLISHING)).toBeNull();
		const newer = service.add();
		expect(ids(await run(A, data))).toEqual([newer]);
	});

	it('keeps the record where saved workflows hold it (the global field platformPollTriggerStarts, keyed by node id and name)', async () => {
		const service = posts();
		const first = workflow();
		expect(await first.run(A, {}, PUBLISHING)).toBeNull();
		const saved = JSON.parse(JSON.stringify(first.global)) as IDataObject;
		expect(Object.keys(saved)).toEqual(['platformPollTriggerStarts']);
		expect(Object.keys(saved.platformPollTriggerStarts as IDataObject)).toEqual(['node-a:Posts A']);
		// The same workflow saved and loaded again (another process, another build of the package).
		const published = service.add();
		const again = workflow();
		Object.assign(again.global, saved);
		expect(ids(await again.run(A, {}))).toEqual([published]);
	});

	it("on an n8n without a poll budget (no scheduler), n8n's own static data keeps the position: new posts run", async () => {
		const service = posts();
		const { ObservableObject } = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
		const data = ObservableObject.create({}) as IDataObject;
		expect('__dataChanged' in data).toBe(true);
		const { run } = workflow();
		expect(await run(A, data)).toBeNull();
		const newer = service.add();
		expect(ids(await run(A, data))).toEqual([newer]);
	});
});

describe('Poll Trigger: a poll that finds nothing new leaves the position as it was', () => {
	it('an empty poll after one that emitted does not move the position (nothing for n8n to commit)', async () => {
		const service = posts();
		const { run } = workflow();
		const data: IDataObject = {};
		expect(await run(A, data)).toBeNull();
		service.add();
		expect(ids(await run(A, data))).toHaveLength(1);
		const before = data.positionSeq;
		expect(await run(A, data)).toBeNull();
		expect(await run(A, data)).toBeNull();
		expect(data.positionSeq).toBe(before);
	});
});
