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
import { NodeOperationError } from 'n8n-workflow';

import { poll, STALE_SNAPSHOT_MS } from '../../nodes/triggers/poll/poll';
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

function ids(result: INodeExecutionData[][] | null): string[] {
	return (result?.[0] ?? []).map((i) => String(i.json.event_id));
}

const FOLLOWERS_READ = USER_42_FOLLOWERS_READ;
const POSTS_READ = USER_42_POSTS_READ;
const FOLLOWERS = USER_42_FOLLOWERS;
const USER_POSTS = USER_42_POSTS;

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

	it('a budget of 0 (a tick that starts late): the read stops after its first page, even within the same millisecond', async () => {
		const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'added' };
		for (let i = 0; i < 300; i++) served.entries.push({ id: nextId(), name: 'u', username: 'u' });
		serve(FOLLOWERS_READ, served);
		const staticData: IDataObject = {};
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
		try {
			const result = await poll.call(
				pollContext({ ...FOLLOWERS, maxItems: 100 }, staticData, 'trigger', {
					getPollBudgetMs: () => 0,
				}).context,
			);
			expect(result).toBeNull();
		} finally {
			clock.mockRestore();
		}
		expect(served.queries).toHaveLength(1);
	});

	it('polls cut short again and again before passing the earlier places: the kept places stay at 30 ids, each once', async () => {
		// 30 followers: the first poll reads them in 3 of the window's 15 requests, each later poll in 1.
		const served: Served = { entries: [], pageLimit: 10, queries: [], order: 'added' };
		for (let i = 0; i < 30; i++) served.entries.push({ id: nextId(), name: 'u', username: 'u' });
		serve(FOLLOWERS_READ, served);
		const staticData: IDataObject = {};
		const run = () =>
			poll.call(
				pollContext({ ...FOLLOWERS, maxItems: 200 }, staticData, 'trigger', {
					getPollBudgetMs: () => 600,
				}).context,
			);
		expect(await run()).toBeNull();
		// From here every page of 10 takes 400 ms, past half the budget: each poll reads one page and
		// is cut short. Fifteen follow: the first cut keeps its place among them.
		served.delayMs = () => 400;
		for (let i = 0; i < 15; i++) served.entries.push({ id: nextId(), name: 'n', username: 'n' });
		expect(ids(await run())).toHaveLength(10);
		for (let poll = 0; poll < 5; poll++) {
			// Nine new followers, and one whose place a cut-short poll kept unfollows and follows again:
			// the next page is those ten, none of them past the earlier places.
			const places = staticData.resumeAfter as string[];
			const back = served.entries.findIndex((e) => String(e.id) === places[0]);
			const [again] = served.entries.splice(back, 1);
			for (let i = 0; i < 9; i++) served.entries.push({ id: nextId(), name: 'n', username: 'n' });
			served.entries.push(again);
			expect(ids(await run())).toHaveLength(9);
			const kept = staticData.resumeAfter as string[];
			expect(new Set(kept).size).toBe(kept.length);
			expect(kept.length).toBeLessThanOrEqual(30);
		}
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

/**
 * n8n's ways of running a poll, per the four settings, as n8n 2.40.7's source has them (a model: the
 * node's real poll() inside it).
 * - The scheduler runs poll triggers only with N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED
 *   and N8N_USE_WORKFLOW_PUBLICATION_SERVICE (n8n/dist/scheduling/poll-trigger-node/durable-poller-chain.js;
 *   poll-job-provider.js installs the no-op poll job manager otherwise, and n8n-core's
 *   active-workflow-triggers.js then polls from in-memory crons). Durable cursors need that and
 *   N8N_POLLER_DURABLE_CURSORS_ENABLED (n8n/dist/workflows/triggers/poll-cursor.service.js, `enabled`).
 * - Every poll's static data goes through resolveCursor (trigger-execution-context.factory.js,
 *   __runPoll): with durable cursors, a snapshot of the poller_state row, created from the node's static
 *   data when missing (getOrCreateCursor); otherwise the row if one exists (none here), else the
 *   workflow's own static data.
 * - Publishing runs one poll (executePollTrigger(true), active-workflow-triggers.js activatePollTrigger):
 *   its items are emitted; when it returns null nothing is committed (poll-trigger-executor.js). The
 *   publication then saves the workflow's static data (workflow-trigger-activator.js activateInternal).
 * - In-memory crons poll the same workflow object; scheduler ticks build a new one from the database
 *   each time (poll-trigger-task-handler.js, createPollExecutionContext) with a budget
 *   (getPollBudgetMs: 36 s by default); other polls get PollContext's 5 minutes.
 * - A poll with items: its cursor is committed with the execution (commitWithExecution) and the
 *   workflow's static data saved (__emit: saveStaticData). A null poll: the changed cursor alone is
 *   committed (commitStagedCursor: __commitCursor); without a row nothing is saved.
 */
export interface HostSettings {
	N8N_SCHEDULER_ENABLED: boolean;
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: boolean;
	N8N_POLLER_DURABLE_CURSORS_ENABLED: boolean;
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: boolean;
}

const NODE = { id: 'node-uuid-1', name: 'Platform Poll Trigger' };
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

interface WorkflowModel {
	staticData: IDataObject;
	get(type: 'global' | 'node'): IDataObject;
}

let hostCount = 0;

export class Host {
	readonly chain: boolean;
	readonly durable: boolean;
	db = { staticData: {} as IDataObject, pollerState: new Map<string, IDataObject>() };
	executions: string[][] = [];
	errors: unknown[] = [];
	/** Each workflow its own id, as n8n gives them. */
	readonly workflowId = `wf-${++hostCount}`;
	/** The commit of a poll with items fails (neither its cursor nor its execution is kept). */
	failCommits = false;
	private memory?: WorkflowModel;

	constructor(
		settings: HostSettings,
		private readonly parameters: IDataObject,
		private readonly typeVersion = 1,
	) {
		this.chain =
			settings.N8N_SCHEDULER_ENABLED &&
			settings.N8N_SCHEDULER_POLL_TRIGGERS_ENABLED &&
			settings.N8N_USE_WORKFLOW_PUBLICATION_SERVICE;
		this.durable = this.chain && settings.N8N_POLLER_DURABLE_CURSORS_ENABLED;
	}

	private fromDb(): WorkflowModel {
		const { ObservableObject } = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
		const staticData = ObservableObject.create(clone(this.db.staticData), undefined, {
			ignoreEmptyOnFirstChild: true,
		}) as IDataObject;
		return {
			staticData,
			get(type) {
				const key = type === 'global' ? 'global' : `node:${NODE.name}`;
				if (staticData[key] === undefined)
					staticData[key] = ObservableObject.create(
						{},
						staticData as unknown as Parameters<typeof ObservableObject.create>[1],
					) as IDataObject;
				return staticData[key] as IDataObject;
			},
		};
	}

	private save(workflow: WorkflowModel): void {
		if (workflow.staticData.__dataChanged === true) {
			this.db.staticData = clone(workflow.staticData);
			workflow.staticData.__dataChanged = false;
		}
	}

	/** One poll as n8n runs it; `publishing`: the poll of the publication. */
	private async run(
		workflow: WorkflowModel,
		publishing: boolean,
		prefetched?: IDataObject,
	): Promise<void> {
		let row = this.db.pollerState.get(NODE.id);
		if (this.durable && row === undefined) {
			row = clone(workflow.get('node'));
			this.db.pollerState.set(NODE.id, row);
		}
		// A tick's snapshot is the row as its task found it when it started (poll-trigger-task-handler.js:
		// `state?.cursor`, passed to createPollExecutionContext as the prefetched cursor).
		const seed = prefetched ?? row;
		const snapshot = seed === undefined ? undefined : clone(seed);
		const nodeData = snapshot ?? workflow.get('node');
		const tick = this.chain && !publishing;
		const built = pollContext(
			this.parameters,
			nodeData,
			'trigger',
			{
				getNode: () => ({
					...NODE,
					type: 'n8n-nodes-platform.platformPostsTrigger',
					typeVersion: this.typeVersion,
					parameters: this.parameters,
					position: [0, 0],
					credentials: {},
				}),
				getWorkflow: () => ({ id: this.workflowId, name: 'Scheduled', active: true }),
				getWorkflowStaticData: (type: string) =>
					type === 'global' ? workflow.get('global') : nodeData,
				getPollBudgetMs: () => (tick ? 36_000 : 300_000),
				getActivationMode: () => (tick ? 'update' : 'activate'),
			},
			this.typeVersion,
		);
		let result: INodeExecutionData[][] | null;
		try {
			result = await poll.call(built.context);
		} catch (error) {
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a model of n8n: the poll's own error fails the publication, as n8n passes it on
			if (publishing) throw error;
			this.errors.push(error);
			return;
		}
		const changed = snapshot !== undefined && JSON.stringify(snapshot) !== JSON.stringify(seed);
		if (result !== null) {
			// The cursor and the execution commit in one transaction (poll-cursor.service.js,
			// commitWithExecution), fenced by the tick's lease only: a failed one keeps neither.
			if (this.failCommits) return;
			if (changed) this.db.pollerState.set(NODE.id, clone(snapshot));
			this.save(workflow);
			this.executions.push(ids(result));
		} else if (!publishing && changed) {
			this.db.pollerState.set(NODE.id, clone(snapshot));
		}
	}

	async publish(): Promise<void> {
		const workflow = this.fromDb();
		await this.run(workflow, true);
		this.save(workflow);
		if (!this.chain) this.memory = workflow;
	}

	async tick(): Promise<void> {
		await this.run(this.chain ? this.fromDb() : this.memory!, false);
	}

	/**
	 * Ticks of the node whose tasks start at once (several Poll Times entries are each their own job,
	 * and after a restart n8n fires every occurrence missed within N8N_SCHEDULER_MISFIRE_GRACE at
	 * once): each reads the poller_state row now; each returned function runs its poll.
	 */
	claim(count: number): Array<() => Promise<void>> {
		return Array.from({ length: count }, () => {
			const row = this.db.pollerState.get(NODE.id);
			const prefetched = row === undefined ? undefined : clone(row);
			return async () => await this.run(this.fromDb(), false, prefetched);
		});
	}
}

export const COMBINATIONS: HostSettings[] = [];
for (let bits = 0; bits < 16; bits++)
	COMBINATIONS.push({
		N8N_SCHEDULER_ENABLED: !!(bits & 1),
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: !!(bits & 2),
		N8N_POLLER_DURABLE_CURSORS_ENABLED: !!(bits & 4),
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: !!(bits & 8),
	});
const label = (s: HostSettings) =>
	Object.entries(s)
		.map(([k, v]) => `${k.replace(/^N8N_/, '')}=${v ? 'on' : 'off'}`)
		.join(' ');

describe('Poll Trigger: what is published between publishing the workflow and its first scheduled poll', () => {
	it.each(COMBINATIONS.map((s) => [label(s), s]))(
		'%s: posts published before the first poll each run once, nothing old runs',
		async (_label, settings) => {
			const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
			for (let i = 0; i < 3; i++)
				served.entries.push({ id: nextId(), text: 'old', author_id: USER });
			serve(POSTS_READ, served);
			const host = new Host(settings as HostSettings, USER_POSTS);
			await host.publish();
			const fresh: string[] = [];
			const add = () => {
				const id = nextId();
				fresh.push(id);
				served.entries.push({ id, text: 'new', author_id: USER });
			};
			for (let i = 0; i < 4; i++) add();
			await host.tick();
			await host.tick();
			add();
			await host.tick();
			expect(host.errors).toEqual([]);
			expect(host.executions.flat()).toEqual(fresh);
		},
	);

	it('followers under durable cursors: those who followed before the first poll each run once, nothing old', async () => {
		const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'added' };
		for (let i = 0; i < 30; i++) served.entries.push({ id: nextId(), name: 'o', username: 'o' });
		serve(FOLLOWERS_READ, served);
		const host = new Host(COMBINATIONS[15], FOLLOWERS);
		await host.publish();
		const fresh = [nextId(), nextId()];
		for (const id of fresh) served.entries.push({ id, name: 'n', username: 'n' });
		await host.tick();
		await host.tick();
		expect(host.errors).toEqual([]);
		expect(host.executions.flat()).toEqual(fresh.map((id) => `follow:${id}:${USER}`));
	});
});

describe('Poll Trigger: every combination of the four settings works or says what to change', () => {
	it.each(COMBINATIONS.map((s) => [label(s), s]))(
		'%s: when the poll at publishing cannot record a position (a 429), new posts run once, or each poll names the settings to change',
		async (_label, settings) => {
			const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
			for (let i = 0; i < 3; i++)
				served.entries.push({ id: nextId(), text: 'old', author_id: USER });
			serve(POSTS_READ, served);
			const host = new Host(settings as HostSettings, USER_POSTS);
			// Refused, its reset already past: the poll skips and records nothing (version 1).
			served.rateLimitOnce = Math.floor(Date.now() / 1000) - 1;
			await host.publish();
			await host.tick();
			const fresh = [nextId(), nextId()];
			for (const id of fresh) served.entries.push({ id, text: 'new', author_id: USER });
			await host.tick();
			await host.tick();
			const s = settings as HostSettings;
			const unkept =
				s.N8N_SCHEDULER_ENABLED &&
				s.N8N_SCHEDULER_POLL_TRIGGERS_ENABLED &&
				s.N8N_USE_WORKFLOW_PUBLICATION_SERVICE &&
				!s.N8N_POLLER_DURABLE_CURSORS_ENABLED;
			if (!unkept) {
				expect(host.errors).toEqual([]);
				expect(host.executions.flat()).toEqual(fresh);
				return;
			}
			expect(host.executions).toEqual([]);
			expect(host.errors).toHaveLength(3);
			for (const error of host.errors) {
				expect(error).toBeInstanceOf(NodeOperationError);
				expect((error as NodeOperationError).message).toContain('cannot keep its position');
				const description = String((error as NodeOperationError).description);
				for (const name of Object.keys(s)) expect(description).toContain(name);
				expect(description).toContain('N8N_POLLER_DURABLE_CURSORS_ENABLED=true');
			}
		},
	);
});

describe('Poll Trigger: several polls of one node at once under durable cursors (docs/production.md)', () => {
	async function published() {
		const served: Served = { entries: [], pageLimit: 100, queries: [], order: 'id' };
		for (let i = 0; i < 3; i++) served.entries.push({ id: nextId(), text: 'old', author_id: USER });
		serve(POSTS_READ, served);
		const host = new Host(COMBINATIONS[15], USER_POSTS);
		await host.publish();
		await host.tick();
		const id = nextId();
		served.entries.push({ id, text: 'new', author_id: USER });
		return { host, id };
	}

	afterEach(() => jest.restoreAllMocks());

	it('ticks started at once from one snapshot (missed Poll Times after a restart) run a new post once', async () => {
		const { host, id } = await published();
		await Promise.all(host.claim(5).map(async (run) => await run()));
		await host.tick();
		expect(host.errors).toEqual([]);
		expect(host.executions).toEqual([[id]]);
	});

	it('a tick that runs after another committed items, on the snapshot from before that commit, runs nothing', async () => {
		const { host, id } = await published();
		const [first, second] = host.claim(2);
		await first();
		await second();
		await host.tick();
		expect(host.errors).toEqual([]);
		expect(host.executions).toEqual([[id]]);
	});

	it('when the commit of a poll with items fails, the older snapshot is polled again after the bound: the post runs once, not lost', async () => {
		const { host, id } = await published();
		const [first, second] = host.claim(2);
		host.failCommits = true;
		await first();
		host.failCommits = false;
		expect(host.executions).toEqual([]);
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now');
		// Within the bound: the snapshot older than the position handed out is not polled, also 50 s on
		// (past N8N_SCHEDULER_POLL_TIMEOUT's 45 s, after which n8n abandons the tick that commits it).
		clock.mockReturnValue(now + 50_000);
		await second();
		expect(host.executions).toEqual([]);
		clock.mockReturnValue(now + STALE_SNAPSHOT_MS - 1_000);
		await second();
		await host.tick();
		expect(host.executions).toEqual([]);
		// Past it: the commit failed, the row still holds the older position, and it is polled again.
		clock.mockReturnValue(now + STALE_SNAPSHOT_MS + 1_000);
		await host.tick();
		await host.tick();
		expect(host.errors).toEqual([]);
		expect(host.executions).toEqual([[id]]);
	});
});
