/**
 * The activity stream trigger against the sandbox's real streaming endpoint (chunked answer,
 * keep-alive lines, backfill), driven through its control routes: events arrive once each, a cut or a
 * stalled stream is reconnected with back-off and caught up without losing or doubling an event, a
 * restarted trigger adopts its subscriptions and catches up from its last event, deactivation closes
 * the connection and deletes the subscriptions.
 */
import type { IDataObject, ITriggerResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { createContext, defaultCredentials } from '../helpers/context';
import {
	backoffDelay,
	catchUpQuery,
	deduplicationKey,
	startActivityStream,
	type StreamTimings,
} from '../../nodes/PlatformTrigger/activityStream';

/* eslint-disable @typescript-eslint/no-require-imports -- the sandbox is plain CommonJS */
const { createSandbox } = require('../../sandbox/server') as {
	createSandbox: (o: IDataObject) => Sandbox;
};
/* eslint-enable @typescript-eslint/no-require-imports */

interface Sandbox {
	url: string;
	keys: { bearerToken: string; userId: string };
	listen(): Promise<Sandbox>;
	close(): Promise<void>;
	emit(input: IDataObject): Promise<Array<{ event_uuid: string }>>;
	db: { subscriptions: Map<string, IDataObject> };
	records: Array<{ path: string; method: string; query: IDataObject; status: number; at: string }>;
	faults: { rules: IDataObject[] };
	activityStream: {
		keepAliveMs: number;
		connects: number;
		connections: Set<{
			stalled: boolean;
			res: { destroy(): void };
			query: IDataObject;
			opened_at: string;
		}>;
		log: Array<{ at: number }>;
	};
}

const FAST: StreamTimings = {
	keepAliveTimeoutMs: 600,
	backoffMs: 50,
	maxBackoffMs: 400,
	rateLimitBackoffMs: 400,
	removalGraceMs: 100,
};

let sb: Sandbox;
beforeEach(async () => {
	sb = await createSandbox({ quiet: true }).listen();
	sb.activityStream.keepAliveMs = 100;
});
afterEach(async () => {
	await sb.close();
});

const wait = async (ms: number) => await sleep(ms);

async function until<T>(what: string, fn: () => T | undefined | false, ms = 5000): Promise<T> {
	const end = Date.now() + ms;
	for (;;) {
		const v = fn();
		if (v) return v;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await wait(20);
	}
}

function trigger(
	opts: { staticData?: IDataObject; workflowId?: string; parameters?: IDataObject } = {},
) {
	const emitted: Array<{ json: IDataObject; key?: string }> = [];
	const errors: Error[] = [];
	const credentials = defaultCredentials();
	credentials.platformBearerApi = {
		...credentials.platformBearerApi,
		baseUrl: sb.url,
		bearerToken: sb.keys.bearerToken,
	};
	const built = createContext({
		parameters: {
			events: ['post.create'],
			user: sb.keys.userId,
			options: {},
			...(opts.parameters ?? {}),
		},
		credentials,
		staticData: opts.staticData ?? {},
		workflowId: opts.workflowId,
		extra: {
			emit: (data: Array<Array<{ json: IDataObject }>>, _r: unknown, _d: unknown, key?: string) =>
				emitted.push({ json: data[0][0].json, key }),
			emitError: (error: Error) => errors.push(error),
		},
	});
	return { ...built, emitted, errors };
}

const ids = (items: Array<{ json: IDataObject }>) => items.map((i) => String(i.json.event_id));
const ours = () => [...sb.db.subscriptions.values()];

async function post(text: string, count = 1): Promise<string[]> {
	const sent = await sb.emit({ event_type: 'post.create', text, count });
	return sent.map((e) => e.event_uuid);
}

describe('the activity stream trigger', () => {
	it('subscribes without a webhook, and runs each event once with its deduplication key', async () => {
		const t = trigger({ workflowId: 'wf-stream-1' });
		const response = await startActivityStream(t.context, FAST);
		try {
			const subs = ours();
			expect(subs).toHaveLength(1);
			expect(subs[0]).toMatchObject({ event_type: 'post.create', webhook_id: undefined });
			expect(String(subs[0].tag)).toMatch(/^n8n:wf-stream-1:node-1:s/);
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			const sent = await post('hello stream', 3);
			await until('3 runs', () => t.emitted.length >= 3);
			await wait(200);
			expect(ids(t.emitted)).toEqual(sent);
			expect(t.emitted.map((e) => e.key)).toEqual(
				sent.map((id) => deduplicationKey('wf-stream-1', 'node-1', id)),
			);
			expect(t.emitted[0].json).toMatchObject({ event_type: 'post.create' });
			// Another trigger's subscription (another tag) is not ours: its copies are not run here.
			await sb.emit({ event_type: 'news.new', user_id: sb.keys.userId });
			await wait(200);
			expect(t.emitted).toHaveLength(3);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a cut stream is reconnected and caught up with backfill: nothing lost, nothing twice', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			const before = await post('before the cut', 2);
			await until('2 runs', () => t.emitted.length >= 2);
			// The cut, then events while the trigger is disconnected (sent before it reconnects).
			for (const c of sb.activityStream.connections) c.res.destroy();
			const during = await post('during the cut', 3);
			await until('a reconnection', () => sb.activityStream.connects >= 2);
			const after = await post('after the cut', 1);
			await until('6 runs', () => t.emitted.length >= 6);
			await wait(300);
			expect(ids(t.emitted).sort()).toEqual([...before, ...during, ...after].sort());
			// Records are written when a connection ends: the open one is read from the stream's state.
			const [reconnect] = [...sb.activityStream.connections];
			expect(reconnect.query).toEqual({ backfill_minutes: '1' });
		} finally {
			await response.closeFunction!();
		}
	});

	it('a stalled stream (not even keep-alives) is closed after the keep-alive timeout and caught up', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			for (const c of sb.activityStream.connections) c.stalled = true;
			const during = await post('while stalled', 2);
			await wait(300);
			expect(t.emitted).toHaveLength(0);
			await until('the trigger to reconnect', () => sb.activityStream.connects >= 2, 5000);
			await until('2 runs', () => t.emitted.length >= 2);
			await wait(200);
			expect(ids(t.emitted).sort()).toEqual([...during].sort());
			expect(t.logs.some((l) => /silent/.test(l.message))).toBe(true);
		} finally {
			await response.closeFunction!();
		}
	});

	it('refused connections are retried with a growing delay, then the stream opens', async () => {
		sb.faults.rules.push({ status: 503, remaining: 4, path: '^/2/activity/stream$' });
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1, 8000);
			const refused = sb.records.filter((r) => r.path === '/2/activity/stream');
			expect(refused.map((r) => r.status)).toEqual([503, 503, 503, 503]);
			const [open] = [...sb.activityStream.connections];
			const tries = [...refused.map((r) => Date.parse(r.at)), Date.parse(open.opened_at)];
			const gaps = tries.slice(1).map((at, i) => at - tries[i]);
			// 50, 100, 200, 400 ms (the cap): each wait at least the one before.
			for (let i = 1; i < gaps.length; i++)
				expect(gaps[i]).toBeGreaterThanOrEqual(gaps[i - 1] - 15);
			expect(gaps[3]).toBeGreaterThanOrEqual(350);
			expect(t.errors).toEqual([]);
		} finally {
			await response.closeFunction!();
		}
	});

	it('deactivation during a long back-off returns at once', async () => {
		sb.faults.rules.push({ status: 503, remaining: 100, path: '^/2/activity/stream$' });
		const t = trigger();
		const response = await startActivityStream(t.context, {
			...FAST,
			backoffMs: 30_000,
			maxBackoffMs: 60_000,
		});
		await wait(300);
		const started = Date.now();
		await response.closeFunction!();
		expect(Date.now() - started).toBeLessThan(1500);
		expect(sb.records.filter((r) => r.path === '/2/activity/stream')).toHaveLength(1);
	});

	it('an invalid token is reported to n8n (emitError), not retried forever', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			t.credentials.platformBearerApi.bearerToken = 'not-a-token';
			for (const c of sb.activityStream.connections) c.res.destroy();
			await until('the error', () => t.errors.length === 1);
			await wait(300);
			expect(sb.records.filter((r) => r.path === '/2/activity/stream')).toHaveLength(2);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a refused token at activation fails the activation and leaves no subscription behind', async () => {
		sb.faults.rules.push({ status: 403, remaining: 1, path: '^/2/activity/stream$' });
		const t = trigger();
		await expect(startActivityStream(t.context, FAST)).rejects.toThrow();
		expect(ours()).toEqual([]);
		expect(sb.activityStream.connections.size).toBe(0);
	});

	it('after a restart it adopts its subscriptions and catches up from its last run, once per event', async () => {
		const staticData: IDataObject = {};
		// n8n stops: the trigger closes, and n8n exits before the subscriptions' removal is due.
		const slow = { ...FAST, removalGraceMs: 3_000 };
		const first = trigger({ workflowId: 'wf-restart', staticData });
		let response: ITriggerResponse = await startActivityStream(first.context, slow);
		await until('the stream to open', () => sb.activityStream.connections.size === 1);
		const seen = await post('before the restart', 2);
		await until('2 runs', () => first.emitted.length >= 2);
		const created = ours().map((s) => s.subscription_id);
		await response.closeFunction!();
		const missed = await post('while n8n is down', 2);
		// The restarted trigger (a new process: its memory is empty, its static data saved).
		const second = trigger({ workflowId: 'wf-restart', staticData });
		response = await startActivityStream(second.context, slow);
		try {
			await until('4 runs after the restart', () => second.emitted.length >= 4);
			await wait(300);
			expect(second.emitted).toHaveLength(4);
			expect(ours().map((s) => s.subscription_id)).toEqual(created);
			const [open] = [...sb.activityStream.connections];
			expect(open.query).toEqual({ backfill_minutes: '1' });
			// The catch-up re-sends the runs before the restart too: n8n's deduplication key refuses them
			// (same keys as the first runs); the missed ones are new.
			const keys = new Set(first.emitted.map((e) => e.key));
			const fresh = second.emitted.filter((e) => !keys.has(e.key));
			expect(ids(fresh).sort()).toEqual([...missed].sort());
			expect(ids(second.emitted).every((id) => [...seen, ...missed].includes(id))).toBe(true);
		} finally {
			await response.closeFunction!();
		}
	});

	it('deactivation closes the connection and deletes its subscriptions', async () => {
		const t = trigger({ parameters: { events: ['post.create', 'spaces.start'] } });
		const response = await startActivityStream(t.context, FAST);
		await until('the stream to open', () => sb.activityStream.connections.size === 1);
		expect(ours()).toHaveLength(2);
		await response.closeFunction!();
		await until('the connection to close', () => sb.activityStream.connections.size === 0, 1000);
		await until('the subscriptions to be deleted', () => ours().length === 0, 3000);
		const connects = sb.activityStream.connects;
		await post('after deactivation', 1);
		await wait(300);
		expect(sb.activityStream.connects).toBe(connects);
		expect(t.emitted).toHaveLength(0);
	});

	it('activating again before the removal is due keeps the subscriptions (an update of the workflow)', async () => {
		const first = trigger({ workflowId: 'wf-update' });
		const response = await startActivityStream(first.context, FAST);
		await until('the stream to open', () => sb.activityStream.connections.size === 1);
		await response.closeFunction!();
		const second = trigger({ workflowId: 'wf-update' });
		const again = await startActivityStream(second.context, FAST);
		try {
			await wait(400);
			expect(ours()).toHaveLength(1);
			await post('after the update', 1);
			await until('a run', () => second.emitted.length === 1);
		} finally {
			await again.closeFunction!();
		}
	});
});

describe('catch-up and back-off', () => {
	const now = Date.parse('2026-11-25T12:00:00Z');
	it('backfill_minutes for a gap up to 5 minutes, start_time beyond, nothing on a first start', () => {
		expect(catchUpQuery(undefined, now)).toEqual({});
		expect(catchUpQuery(now - 10_000, now)).toEqual({ backfill_minutes: 1 });
		expect(catchUpQuery(now - 4 * 60_000, now)).toEqual({ backfill_minutes: 5 });
		expect(catchUpQuery(now - 10 * 60_000, now)).toEqual({ start_time: '2026-11-25T11:49:30Z' });
		expect(catchUpQuery(now + 60_000, now)).toEqual({});
	});
	it('doubles up to the cap', () => {
		expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, 1000, 60_000))).toEqual([
			1000, 2000, 4000, 8000, 60_000,
		]);
	});
});
