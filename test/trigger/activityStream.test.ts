/**
 * The activity stream trigger against the sandbox's real streaming endpoint (chunked answer,
 * keep-alive lines, backfill), driven through its control routes: events arrive once each, a cut or a
 * stalled stream is reconnected with back-off and caught up without losing or doubling an event, a
 * restarted trigger adopts its subscriptions and catches up from its last event, deactivation closes
 * the connection and deletes the subscriptions.
 */
import type { IDataObject, ITriggerResponse } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import {
	backoffDelay,
	catchUpQuery,
	deduplicationKey,
	forgetStreamMemory,
	MAX_LINE_LENGTH,
	MAX_RUNS_IN_PROGRESS,
	startActivityStream,
	streamMemorySize,
	type StreamTimings,
} from '../../nodes/triggers/stream/activityStream';
import { MAX_PENDING } from '../../nodes/triggers/stream/streamCore';
import {
	createSandbox,
	ids,
	streamHelpers,
	until,
	wait,
	type StreamSandbox,
} from './streamHarness';

const FAST: StreamTimings = {
	keepAliveTimeoutMs: 600,
	backoffMs: 50,
	maxBackoffMs: 400,
	rateLimitBackoffMs: 400,
	removalGraceMs: 100,
};

let sb: StreamSandbox;
beforeEach(async () => {
	sb = await createSandbox({ quiet: true }).listen();
	sb.activityStream.keepAliveMs = 100;
});
afterEach(async () => {
	await sb.close();
});

/** n8n saves the static data as JSON: a restart reads a copy. */
const clone = (o: IDataObject): IDataObject => JSON.parse(JSON.stringify(o)) as IDataObject;
const { trigger, ours, post } = streamHelpers(() => sb);

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

	it('after a restart it adopts its subscriptions and catches up from its position, once per event', async () => {
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
		// The restarted trigger: a new process (its memory is empty), its static data as saved.
		forgetStreamMemory();
		const second = trigger({ workflowId: 'wf-restart', staticData: clone(staticData) });
		response = await startActivityStream(second.context, slow);
		try {
			await until('2 runs after the restart', () => second.emitted.length >= 2);
			await wait(300);
			expect(ours().map((s) => s.subscription_id)).toEqual(created);
			const [open] = [...sb.activityStream.connections];
			expect(open.query).toEqual({ backfill_minutes: '1' });
			// The catch-up re-sends the runs before the restart too: the saved ids drop them.
			expect(ids(second.emitted).sort()).toEqual([...missed].sort());
			expect(ids(second.emitted).some((id) => seen.includes(id))).toBe(false);
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

describe('the review of the activity stream trigger (each test failed before its fix)', () => {
	afterEach(() => forgetStreamMemory());

	const MIN = 60_000;
	const streamQueries = () =>
		sb.records.filter((r) => r.path === '/2/activity/stream').map((r) => r.query);

	it('3: an editor test run beside the active trigger takes none of its events', async () => {
		const active = trigger({ workflowId: 'wf-manual' });
		const response = await startActivityStream(active.context, FAST);
		const test = trigger({ workflowId: 'wf-manual', mode: 'manual' });
		const testRun = await startActivityStream(test.context, FAST);
		try {
			await until('both streams', () => sb.activityStream.connections.size === 2);
			// The active trigger's stream drops and cannot reconnect for a moment; the test run hears the
			// event first, and the active trigger gets it from its catch-up.
			sb.faults.rules.push({ status: 503, remaining: 2, path: '^/2/activity/stream$' });
			const [activeStream] = [...sb.activityStream.connections];
			activeStream.res.destroy();
			const sent = await post('beside a test run', 2);
			await until('the test run', () => test.emitted.length === 2);
			await until('2 production runs', () => active.emitted.length === 2, 5000);
			expect(ids(active.emitted)).toEqual(sent);
		} finally {
			await testRun.closeFunction!();
			await response.closeFunction!();
		}
	});

	it("3: closing an editor test run keeps the active trigger's memory (a catch-up runs nothing twice)", async () => {
		const active = trigger({ workflowId: 'wf-manual-2' });
		const response = await startActivityStream(active.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const sent = await post('before the test run', 1);
			await until('1 run', () => active.emitted.length === 1);
			const test = trigger({ workflowId: 'wf-manual-2', mode: 'manual' });
			const testRun = await startActivityStream(test.context, FAST);
			await testRun.closeFunction!();
			// The active trigger's stream drops: the catch-up (backfill) sends the event again.
			const connects = sb.activityStream.connects;
			for (const c of sb.activityStream.connections) c.res.destroy();
			await until('a reconnection', () => sb.activityStream.connects > connects);
			await wait(300);
			expect(ids(active.emitted)).toEqual(sent);
		} finally {
			await response.closeFunction!();
		}
	});

	it("3: an editor test run does not cancel the active trigger's pending subscription removal", async () => {
		const timings = { ...FAST, removalGraceMs: 300 };
		const active = trigger({ workflowId: 'wf-manual-3' });
		const response = await startActivityStream(active.context, timings);
		await until('the stream', () => sb.activityStream.connections.size === 1);
		await response.closeFunction!();
		const test = trigger({ workflowId: 'wf-manual-3', mode: 'manual' });
		const testRun = await startActivityStream(test.context, timings);
		await testRun.closeFunction!();
		await until('every subscription deleted', () => ours().length === 0, 3000);
	});

	/** Static data of a trigger that had caught up to `at` (as the version before the fix saved it too). */
	const savedAt = (at: number): IDataObject => ({
		caughtUpTo: new Date(at).toISOString(),
		streamEventAt: new Date(at).toISOString(),
	});
	/** Makes the sandbox's stream log say the events came `ago` ms ago (the backlog of a catch-up). */
	const age = (eventIds: string[], ago: number) => {
		for (const entry of sb.activityStream.log)
			if (eventIds.includes((entry as unknown as { event_uuid: string }).event_uuid))
				entry.at = Date.now() - ago;
	};

	/** Events of 8 minutes ago on the trigger's subscriptions (made by an earlier run): a backlog. */
	const backlogOf = async (workflowId: string, count: number): Promise<string[]> => {
		const earlier = trigger({ workflowId });
		const r = await startActivityStream(earlier.context, { ...FAST, removalGraceMs: 60_000 });
		await until('the earlier stream', () => sb.activityStream.connections.size === 1);
		await r.closeFunction!();
		await until('the earlier stream closed', () => sb.activityStream.connections.size === 0);
		forgetStreamMemory();
		const sent = await post('missed', count);
		age(sent, 8 * MIN);
		return sent;
	};

	it('4: a cut during a catch-up asks for the same backlog again, not for the last minute', async () => {
		const staticData = savedAt(Date.now() - 10 * MIN);
		// The service sends the backlog slowly, keep-alives on their timer between its lines.
		sb.activityStream.backlogLineMs = 400;
		const backlog = await backlogOf('wf-catchup', 3);
		const t = trigger({ workflowId: 'wf-catchup', staticData });
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the first of the backlog', () => t.emitted.length === 1);
			const [first] = [...sb.activityStream.connections];
			expect(first.query.start_time).toMatch(/Z$/);
			expect(first.query.end_time).toMatch(/Z$/);
			const connects = sb.activityStream.connects;
			// Keep-alives came after the first line; then the connection is cut.
			await wait(250);
			for (const c of sb.activityStream.connections) c.res.destroy();
			await until('a reconnection', () => sb.activityStream.connects > connects, 3000);
			await until('the new connection', () => sb.activityStream.connections.size === 1);
			const [second] = [...sb.activityStream.connections];
			expect(second.query.start_time).toBe(first.query.start_time);
			await until('the whole backlog', () => t.emitted.length === 3, 5000);
			expect(ids(t.emitted)).toEqual(backlog);
		} finally {
			await response.closeFunction!();
		}
	});

	it('51a: a keep-alive inside a long backlog, then a cut: the rest of the backlog still runs', async () => {
		// Before the fix the keep-alive completed the catch-up: the reconnection asked one minute of
		// backfill and the rest of the 8-minute-old backlog never ran.
		const staticData = savedAt(Date.now() - 10 * MIN);
		sb.activityStream.backlogLineMs = 400;
		const backlog = await backlogOf('wf-51a', 3);
		const t = trigger({ workflowId: 'wf-51a', staticData });
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the first of the backlog', () => t.emitted.length === 1);
			await wait(250);
			for (const c of sb.activityStream.connections) c.res.destroy();
			sb.activityStream.backlogLineMs = 0;
			await until('the whole backlog', () => t.emitted.length === 3, 5000);
			expect(ids(t.emitted)).toEqual(backlog);
		} finally {
			await response.closeFunction!();
		}
	});

	it('4: a restart during a catch-up starts from the same position', async () => {
		const staticData = savedAt(Date.now() - 10 * MIN);
		sb.activityStream.backlogLineMs = 1_000;
		const backlog = await backlogOf('wf-catchup-2', 2);
		const slow = { ...FAST, keepAliveTimeoutMs: 5_000, removalGraceMs: 5_000 };
		const t = trigger({ workflowId: 'wf-catchup-2', staticData });
		const response = await startActivityStream(t.context, slow);
		await until('the backlog', () => t.emitted.length === 1);
		expect(ids(t.emitted)).toEqual(backlog.slice(0, 1));
		const [first] = [...sb.activityStream.connections];
		await response.closeFunction!();
		forgetStreamMemory();
		sb.activityStream.backlogLineMs = 0;
		const again = trigger({ workflowId: 'wf-catchup-2', staticData: clone(staticData) });
		const restarted = await startActivityStream(again.context, slow);
		try {
			await until('the rest of the backlog', () => again.emitted.length === 1);
			expect(sb.activityStream.log.length).toBeGreaterThan(0);
			const queries = streamQueries();
			expect(queries.at(-1)!.start_time ?? queries.at(-2)!.start_time).toBe(first.query.start_time);
			// The backlog's first event ran before the restart: the saved ids drop its copy.
			await wait(300);
			expect(ids(again.emitted)).toEqual(backlog.slice(1));
		} finally {
			await restarted.closeFunction!();
		}
	});

	it('5: an event whose run n8n did not start runs from a later copy', async () => {
		let refused = 0;
		const t = trigger({
			workflowId: 'wf-start',
			start: () => (refused++ < 1 ? 'not started' : 'started'),
		});
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const sent = await post('n8n fails to start it once', 1);
			await until('the run', () => t.emitted.length === 1, 5000);
			expect(ids(t.emitted)).toEqual(sent);
			expect(refused).toBe(2);
			expect(t.emitted[0].key).toBe(deduplicationKey('wf-start', 'node-1', sent[0]));
		} finally {
			await response.closeFunction!();
		}
	});

	it('5: the position does not pass an event whose run n8n did not start', async () => {
		const failing = '4200000001';
		const staticData: IDataObject = {};
		const t = trigger({ staticData, start: (id) => (id === failing ? 'not started' : 'started') });
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 5_000 });
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const before = Date.now();
			// n8n cannot start this event's run (its database fails for it), later ones it can.
			await sb.emit({ event_type: 'post.create', text: 'x', event_uuid: failing });
			await wait(200);
			await post('after it', 1);
			await wait(400);
			const saved = Date.parse(String(staticData.caughtUpTo ?? staticData.streamEventAt));
			expect(saved).toBeLessThanOrEqual(before + 50);
		} finally {
			await response.closeFunction!();
		}
	});

	it('51b: n8n fails to start one run, then restarts: a copy of the event still runs', async () => {
		// Before the fix the static data n8n saves next still claimed the event (written with its emit):
		// after the restart every copy of it was dropped, and it never ran.
		const staticData: IDataObject = {};
		let refused = false;
		const first = trigger({
			workflowId: 'wf-51b',
			staticData,
			start: () => (refused ? 'started' : ((refused = true), 'not started')),
		});
		// The reconnection that would fetch a copy waits longer than the test: n8n restarts first.
		const response = await startActivityStream(first.context, {
			...FAST,
			backoffMs: 10_000,
			removalGraceMs: 5_000,
		});
		await until('the stream', () => sb.activityStream.connections.size === 1);
		const sent = await post('its run fails to start', 1);
		await until('the failed start', () => refused);
		await wait(100);
		await response.closeFunction!();
		forgetStreamMemory();
		// n8n saves the static data as it is when the next run ends: the copy made at the restart.
		const second = trigger({ workflowId: 'wf-51b', staticData: clone(staticData) });
		const restarted = await startActivityStream(second.context, FAST);
		try {
			await until('its run after the restart', () => second.emitted.length === 1, 3000);
			expect(ids(second.emitted)).toEqual(sent);
		} finally {
			await restarted.closeFunction!();
		}
	});

	it('6: reconnections and the delayed removal work without n8n internals (getCredentials and a Bearer header)', async () => {
		let activated = false;
		const t = trigger({ workflowId: 'wf-creds' });
		const helpers = (t.context as unknown as { helpers: IDataObject }).helpers;
		const authenticated = helpers.httpRequestWithAuthentication as (...a: unknown[]) => unknown;
		// A newer n8n: its authenticated request fails once trigger() has returned (no isolate).
		helpers.httpRequestWithAuthentication = async (...args: unknown[]) => {
			if (activated) throw new Error('No bridge acquired');
			return await authenticated(...args);
		};
		const response = await startActivityStream(t.context, { ...FAST, removalGraceMs: 200 });
		activated = true;
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			for (const c of sb.activityStream.connections) c.res.destroy();
			await until('a reconnection', () => sb.activityStream.connects >= 2);
			const sent = await post('after the reconnection', 1);
			await until('the run', () => t.emitted.length === 1);
			expect(ids(t.emitted)).toEqual(sent);
			const streams = t.requests.filter((r) => r.url.includes('/2/activity/stream'));
			expect(streams.at(-1)!.headers.authorization).toBe(`Bearer ${sb.keys.bearerToken}`);
		} finally {
			await response.closeFunction!();
		}
		await until('the subscriptions deleted', () => ours().length === 0, 3000);
		expect(t.errors).toEqual([]);
	});

	it('6: a refused token on a reconnection is reported to n8n, and the token is in no log or error', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			sb.faults.rules.push({ status: 401, remaining: 1, path: '^/2/activity/stream$' });
			for (const c of sb.activityStream.connections) c.res.destroy();
			await until('the error', () => t.errors.length === 1);
			const said = JSON.stringify([
				t.logs,
				t.errors.map((e) => ({ ...e, message: e.message, stack: e.stack })),
			]);
			expect(said).not.toContain(sb.keys.bearerToken);
		} finally {
			await response.closeFunction!();
		}
	});

	it('7: a restart does not run again what ran before it, without execution rows (see the restart test above)', async () => {
		const staticData: IDataObject = {};
		const first = trigger({ workflowId: 'wf-pruned', staticData });
		const response = await startActivityStream(first.context, { ...FAST, removalGraceMs: 5_000 });
		await until('the stream', () => sb.activityStream.connections.size === 1);
		const sent = await post('ran before the restart', 3);
		await until('3 runs', () => first.emitted.length === 3);
		await wait(200);
		await response.closeFunction!();
		forgetStreamMemory();
		// The emit double keeps no execution rows: n8n's deduplication key cannot refuse anything.
		const second = trigger({ workflowId: 'wf-pruned', staticData: clone(staticData) });
		const restarted = await startActivityStream(second.context, FAST);
		try {
			await until('the catch-up', () => sb.activityStream.connections.size === 1);
			await wait(400);
			expect(ids(first.emitted)).toEqual(sent);
			expect(second.emitted).toEqual([]);
		} finally {
			await restarted.closeFunction!();
		}
	});

	it("5: a workflow on n8n's Engine 2.0 (no donePromise there) still runs each event once", async () => {
		const handed: Array<{ id: string; done: boolean }> = [];
		const t = trigger({
			workflowId: 'wf-engine-v2',
			extra: {
				emit: (
					data: Array<Array<{ json: IDataObject }>>,
					_r: unknown,
					done: { reject(e: Error): void } | undefined,
				) => {
					const id = String(data[0][0].json.event_id);
					handed.push({ id, done: !!done });
					// As n8n 2.40 for engineType v2: a trigger that waits for its run is refused, unstarted.
					if (done)
						void Promise.resolve().then(() =>
							done.reject(new UserError('Engine 2.0 cannot run a trigger that waits')),
						);
				},
			},
		});
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const [first] = await post('first', 1);
			await until('the hand-over without a donePromise', () => handed.length === 2);
			const [second] = await post('second', 1);
			await until('the second event', () => handed.length === 3);
			await wait(300);
			expect(handed).toEqual([
				{ id: first, done: true },
				{ id: first, done: false },
				{ id: second, done: false },
			]);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('memory bounds of the activity stream trigger (issue 53)', () => {
	afterEach(() => forgetStreamMemory());

	it('a line longer than the maximum: an error in the log, the stream opened again, nothing lost or run twice', async () => {
		const t = trigger({ workflowId: 'wf-long-line' });
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			const before = await post('before the long line', 2);
			await until('2 runs', () => t.emitted.length >= 2);
			// An endless line (here one character over the maximum), then an event behind it on the same
			// connection: the trigger drops the line and the connection, and the catch-up sends the event.
			const fault = await fetch(`${sb.url}/_sandbox/activity-stream/long-line`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ length: MAX_LINE_LENGTH + 1 }),
			});
			expect(fault.status).toBe(200);
			const behind = await post('behind the long line', 1);
			await until('a reconnection', () => sb.activityStream.connects >= 2);
			await until('3 runs', () => t.emitted.length >= 3);
			await wait(300);
			expect(ids(t.emitted).sort()).toEqual([...before, ...behind].sort());
			const errors = t.logs.filter((l) => l.level === 'error').map((l) => l.message);
			expect(errors).toEqual([
				`Platform Trigger: the activity stream sent a line longer than ${MAX_LINE_LENGTH} characters; it was dropped and the stream is opened again`,
			]);
		} finally {
			await response.closeFunction!();
		}
	});

	it(`more than ${MAX_PENDING} events whose runs n8n did not start: later events wait, then each runs once`, async () => {
		// At most MAX_RUNS_IN_PROGRESS runs are in progress (see the backpressure tests), so the events not
		// known to have started reach MAX_PENDING only as runs n8n did not start, each waiting for a copy.
		let outage = true;
		const refused = new Set<string>();
		const started: string[] = [];
		const t = trigger({
			workflowId: 'wf-pending',
			extra: {
				emit: (
					data: Array<Array<{ json: IDataObject }>>,
					_r: unknown,
					done: { resolve(v: unknown): void; reject(e: Error): void } | undefined,
				) => {
					const id = String(data[0][0].json.event_id);
					if (outage) {
						refused.add(id);
						void Promise.resolve().then(() => done?.reject(new Error('SQLITE_BUSY')));
						return;
					}
					started.push(id);
					void Promise.resolve().then(() => done?.resolve({}));
				},
			},
		});
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			// n8n's database is down: none of the first MAX_PENDING runs starts.
			const first = await post('runs not started', MAX_PENDING);
			const later = await post('behind them', 20);
			await until(`${MAX_PENDING} refused`, () => refused.size >= MAX_PENDING, 30_000);
			await until(
				'the warning',
				() => t.logs.some((l) => l.level === 'warn' && /waiting for n8n/.test(l.message)),
				30_000,
			);
			// The database is back: the next catch-ups send everything again, and each runs once.
			outage = false;
			await until('every run', () => started.length >= MAX_PENDING + later.length, 60_000);
			await wait(500);
			expect(started.slice().sort()).toEqual([...first, ...later].sort());
			// A connection at the bound defers every later event it carries: the warning comes once for
			// it (at the first deferred event), not once per event.
			const warnings = t.logs.filter((l) => /waiting for n8n/.test(l.message));
			expect(warnings.length).toBeGreaterThanOrEqual(1);
			expect(warnings.length).toBeLessThanOrEqual(sb.activityStream.connects);
		} finally {
			await response.closeFunction!();
		}
	}, 120_000);

	it('the per-trigger memory: an entry per active trigger, removed when it closes (or when its last run ends)', async () => {
		for (let i = 0; i < 5; i++) {
			const t = trigger({ workflowId: `wf-many-${i}` });
			const response = await startActivityStream(t.context, FAST);
			expect(streamMemorySize()).toBe(1);
			await response.closeFunction!();
			expect(streamMemorySize()).toBe(0);
		}

		// A run still in progress when the trigger closes keeps the entry; activated again meanwhile (a
		// workflow saved while active), the new activation owns it and drops the event's copy.
		const staticData: IDataObject = {};
		const finish: Array<() => void> = [];
		const held = trigger({
			workflowId: 'wf-held',
			staticData,
			extra: {
				emit: (
					data: Array<Array<{ json: IDataObject }>>,
					_r: unknown,
					done: { resolve(v: unknown): void } | undefined,
				) => {
					held.emitted.push({ json: data[0][0].json });
					finish.push(() => done?.resolve({}));
				},
			},
		});
		const first = await startActivityStream(held.context, FAST);
		await until('the stream to open', () => sb.activityStream.connections.size === 1);
		const sent = await post('a run in progress at the close', 1);
		await until('1 run', () => finish.length === 1);
		await first.closeFunction!();
		expect(streamMemorySize()).toBe(1);
		const again = trigger({ workflowId: 'wf-held', staticData: clone(staticData) });
		const second = await startActivityStream(again.context, FAST);
		try {
			finish[0]();
			await wait(50);
			expect(streamMemorySize()).toBe(1);
			// Its catch-up sends the event again: the remembered claim drops it.
			await until('a catch-up', () => sb.activityStream.connects >= 2);
			await wait(300);
			expect(ids(held.emitted)).toEqual(sent);
			expect(again.emitted).toEqual([]);
			// The closed activation's static data keeps its own copy of the record: what the new activation
			// handles is not written into it (n8n may still save it with a run that ends).
			const next = await post('after the activation again', 1);
			await until('a run', () => again.emitted.length === 1);
			const recorded = (o: IDataObject) =>
				((o.handled ?? []) as Array<[string, number]>).map(([id]) => id);
			expect(recorded(again.staticData)).toEqual(expect.arrayContaining([...sent, ...next]));
			expect(recorded(staticData)).toEqual(sent);
		} finally {
			await second.closeFunction!();
		}
		expect(streamMemorySize()).toBe(0);
	});
});

describe('backpressure: at most MAX_RUNS_IN_PROGRESS runs in progress (bench/results/history.md, the stream soak)', () => {
	afterEach(() => forgetStreamMemory());

	it(`more events than the bound while no run finishes: reading stops (the service holds the bytes); one run finishes: reading resumes; each event once`, async () => {
		const finish: Array<() => void> = [];
		const started: string[] = [];
		const t = trigger({
			workflowId: 'wf-backpressure',
			extra: {
				emit: (
					data: Array<Array<{ json: IDataObject }>>,
					_r: unknown,
					done: { resolve(v: unknown): void } | undefined,
				) => {
					started.push(String(data[0][0].json.event_id));
					// As n8n: donePromise settles when the run ends, here when the test ends it.
					finish.push(() => done?.resolve({}));
				},
			},
		});
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			const [connection] = [...sb.activityStream.connections] as unknown as Array<{
				res: { writableLength: number };
			}>;
			const first = await post('runs that do not finish yet', MAX_RUNS_IN_PROGRESS + 5);
			await until(`${MAX_RUNS_IN_PROGRESS} runs`, () => started.length >= MAX_RUNS_IN_PROGRESS);
			// Reading has stopped: events of half a megabyte each fill the socket's buffers, and the
			// service holds what it could not send (TCP flow control).
			const big = 'x'.repeat(500_000);
			const behind = await post(big, 40);
			await until('the service holding bytes', () => connection.res.writableLength > 0, 10_000);
			// Longer than the keep-alive timeout: the wait is the trigger's own, not a silent stream.
			await wait(FAST.keepAliveTimeoutMs * 2);
			expect(started).toHaveLength(MAX_RUNS_IN_PROGRESS);
			expect(sb.activityStream.connects).toBe(1);
			// One run finishes: reading resumes for exactly one more.
			finish.shift()!();
			await until('one more run', () => started.length === MAX_RUNS_IN_PROGRESS + 1);
			await wait(300);
			expect(started).toHaveLength(MAX_RUNS_IN_PROGRESS + 1);
			// The runs finish as they come: everything sent runs, each once, on the same connection.
			const all = [...first, ...behind];
			await until(
				'every run',
				() => {
					for (const end of finish.splice(0)) end();
					return started.length >= all.length;
				},
				20_000,
			);
			await wait(300);
			for (const end of finish.splice(0)) end();
			expect(started).toEqual(all);
			expect(sb.activityStream.connects).toBe(1);
		} finally {
			for (const end of finish.splice(0)) end();
			await response.closeFunction!();
		}
	}, 60_000);

	it('the service disconnects the trigger as a slow reader while it waits: the catch-up brings the rest, each event once', async () => {
		// The service disconnects a slow reader (operational-disconnect, SlowReader). The sandbox sends the problem
		// line and ends the answer once more than 1 MB waits unread for the trigger.
		sb.activityStream.slowReaderBytes = 1_000_000;
		const finish: Array<() => void> = [];
		const started: string[] = [];
		const t = trigger({
			workflowId: 'wf-slow-reader',
			extra: {
				emit: (
					data: Array<Array<{ json: IDataObject }>>,
					_r: unknown,
					done: { resolve(v: unknown): void } | undefined,
				) => {
					started.push(String(data[0][0].json.event_id));
					finish.push(() => done?.resolve({}));
				},
			},
		});
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream to open', () => sb.activityStream.connections.size === 1);
			const first = await post('runs that do not finish yet', MAX_RUNS_IN_PROGRESS + 5);
			await until(`${MAX_RUNS_IN_PROGRESS} runs`, () => started.length >= MAX_RUNS_IN_PROGRESS);
			const behind = await post('y'.repeat(500_000), 40);
			await until('the disconnect', () => sb.activityStream.slowReaderDisconnects >= 1, 10_000);
			const after = await post('after the disconnect', 3);
			const all = [...first, ...behind, ...after];
			await until(
				'every run',
				() => {
					for (const end of finish.splice(0)) end();
					return started.length >= all.length;
				},
				20_000,
			);
			await wait(500);
			for (const end of finish.splice(0)) end();
			expect(started.slice().sort()).toEqual(all.slice().sort());
			expect(sb.activityStream.connects).toBeGreaterThanOrEqual(2);
			expect(t.logs.map((l) => l.message)).toEqual(
				expect.arrayContaining([expect.stringMatching(/reported .*operational-disconnect/)]),
			);
		} finally {
			for (const end of finish.splice(0)) end();
			await response.closeFunction!();
		}
	}, 60_000);
});

describe('several main instances (issue 52): one workflow, one database, two mains', () => {
	/** One main's copy of the trigger module: its own process memory, as a separate n8n process has. */
	const mainProcess = (): typeof import('../../nodes/triggers/stream/activityStream') => {
		let loaded: typeof import('../../nodes/triggers/stream/activityStream') | undefined;
		jest.isolateModules(() => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- a second module instance
			loaded = require('../../nodes/triggers/stream/activityStream');
		});
		return loaded!;
	};

	/** n8n's executions table: a deduplication key with a row refuses the run (rows kept). */
	const rows = new Set<string>();
	const runs: string[] = [];
	const emitOnce = (
		data: Array<Array<{ json: IDataObject }>>,
		_r: unknown,
		done: { resolve(v: unknown): void } | undefined,
		key?: string,
	) => {
		if (key && rows.has(key)) {
			void Promise.resolve().then(() => done?.resolve({}));
			return;
		}
		if (key) rows.add(key);
		runs.push(String(data[0][0].json.event_id));
		void Promise.resolve().then(() => done?.resolve({}));
	};
	beforeEach(() => {
		rows.clear();
		runs.length = 0;
	});

	it('a leader change without execution rows: the new leader reads the record and runs nothing twice', async () => {
		const a = mainProcess();
		const b = mainProcess();
		const database: IDataObject = {};
		const slow = { ...FAST, removalGraceMs: 5_000 };
		// No rows: n8n keeps no successful execution (the deduplication key refuses nothing).
		const runAll = {
			emit: (...args: Parameters<typeof emitOnce>) => emitOnce(args[0], args[1], args[2]),
		};
		const onA = trigger({ workflowId: 'wf-mains-2', staticData: database, extra: runAll });
		const leaderA = await a.startActivityStream(onA.context, slow);
		await until('A streams', () => sb.activityStream.connections.size === 1);
		const first = await post('A leads', 2);
		await until('A runs them', () => runs.length === 2);
		await wait(100);
		await leaderA.closeFunction!();
		const whileNone = await post('no leader for a moment', 1);
		const onB = trigger({ workflowId: 'wf-mains-2', staticData: clone(database), extra: runAll });
		const leaderB = await b.startActivityStream(onB.context, slow);
		try {
			await until('the missed event', () => runs.length >= 3, 5000);
			await wait(400);
			expect([...runs].sort()).toEqual([...first, ...whileNone].sort());
		} finally {
			await leaderB.closeFunction!();
		}
	});

	it('a leader change and then two leaders at once: each event runs once', async () => {
		const a = mainProcess();
		const b = mainProcess();
		// The database's copy of the static data; each main reads it when it activates the trigger.
		const database: IDataObject = {};
		const slow = { ...FAST, removalGraceMs: 5_000 };
		const onA = trigger({
			workflowId: 'wf-mains',
			staticData: database,
			extra: { emit: emitOnce },
		});
		const leaderA = await a.startActivityStream(onA.context, slow);
		await until('A streams', () => sb.activityStream.connections.size === 1);
		const first = await post('A leads', 2);
		await until('A runs them', () => runs.length === 2);
		// A steps down: n8n closes its trigger and does not save its static data then; B reads the database.
		await leaderA.closeFunction!();
		const whileNone = await post('no leader for a moment', 1);
		const onB = trigger({
			workflowId: 'wf-mains',
			staticData: clone(database),
			extra: { emit: emitOnce },
		});
		const leaderB = await b.startActivityStream(onB.context, slow);
		// A leads again while B still runs (B lost Redis and has not noticed): two trigger() at once.
		const onA2 = trigger({
			workflowId: 'wf-mains',
			staticData: clone(database),
			extra: { emit: emitOnce },
		});
		const againA = await a.startActivityStream(onA2.context, slow);
		try {
			await until('two streams', () => sb.activityStream.connections.size === 2);
			const both = await post('two leaders', 3);
			await until('every event', () => runs.length >= 6, 5000);
			await wait(400);
			expect([...runs].sort()).toEqual([...first, ...whileNone, ...both].sort());
		} finally {
			await leaderB.closeFunction!();
			await againA.closeFunction!();
		}
	});
});
