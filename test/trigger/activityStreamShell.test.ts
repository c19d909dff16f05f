/**
 * The activity stream trigger's shell (activityStream.ts), what its first mutation run found untested
 * (bench/results/mutation.md, "activityStream.ts"): how long it waits before reconnecting and why, what a
 * bounded catch-up and a checkpoint do to the next connection, the options in seconds, the lines that
 * are not events, the older static data, two triggers in one process, the subscriptions a restart with
 * other parameters keeps or replaces, a cancelled run, an editor test run's close, and what the trigger
 * writes to n8n's log. Against the sandbox's real streaming endpoint, as activityStream.test.ts.
 */
import type { IDataObject, ITriggerResponse } from 'n8n-workflow';
import { ManualExecutionCancelledError } from 'n8n-workflow';

import {
	catchUpQuery,
	deduplicationKey,
	forgetStreamMemory,
	startActivityStream,
	streamMemorySize,
	type StreamTimings,
} from '../../nodes/triggers/stream/activityStream';
import { ACTIVITY_EVENT_TYPES } from '../../nodes/triggers/shared/events';
import {
	createSandbox,
	ids,
	streamHelpers,
	until,
	wait,
	type StreamSandbox,
} from './streamHarness';

const MIN = 60_000;
const FAST: StreamTimings = {
	keepAliveTimeoutMs: 10_000,
	backoffMs: 600,
	maxBackoffMs: 5_000,
	rateLimitBackoffMs: 1_500,
	removalGraceMs: 100,
};

let sb: StreamSandbox;
/** Every request for the stream as it arrives (the sandbox records one when its answer ends). */
let opens: Array<{ at: number; query: IDataObject }>;
beforeEach(async () => {
	sb = await createSandbox({ quiet: true }).listen();
	sb.activityStream.keepAliveMs = 100;
	opens = [];
	sb.server.prependListener('request', (req: { url?: string }) => {
		const url = new URL(req.url ?? '/', sb.url);
		if (url.pathname === '/2/activity/stream')
			opens.push({ at: performance.now(), query: Object.fromEntries(url.searchParams) });
	});
});
afterEach(async () => {
	jest.restoreAllMocks();
	forgetStreamMemory();
	await sb.close();
});

const { trigger, ours, post } = streamHelpers(() => sb);
const streamRequests = () => opens;
const logged = (
	t: { logs: Array<{ level: string; message: string }> },
	re: RegExp,
	level?: string,
) => t.logs.filter((l) => re.test(l.message) && (level === undefined || l.level === level));

/** Cuts every open connection and returns when the cut was made. */
function cut(): number {
	for (const c of sb.activityStream.connections) c.res.destroy();
	return performance.now();
}

/** The time (ms) of the stream request number `n` (1-based) once it has come. */
async function requestAt(n: number, ms = 8000): Promise<number> {
	const r = await until(`stream request ${n}`, () => opens[n - 1], ms);
	return r.at;
}

describe('the deduplication key and the memory hook', () => {
	it("is platform-activity:<workflow>:<node>:<event id>, at most 255 characters (n8n's column)", () => {
		expect(deduplicationKey('wf-1', 'node-1', 'e1')).toBe('platform-activity:wf-1:node-1:e1');
		expect(deduplicationKey(undefined, undefined, 'e1')).toBe('platform-activity:::e1');
		const long = deduplicationKey('w'.repeat(300), 'node-1', 'e1');
		expect(long).toHaveLength(255);
		expect(long.startsWith(`platform-activity:${'w'.repeat(100)}`)).toBe(true);
	});

	it('forgetStreamMemory empties the memory a restart test relies on', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			expect(streamMemorySize()).toBe(1);
			forgetStreamMemory();
			expect(streamMemorySize()).toBe(0);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('how long the trigger waits before reconnecting', () => {
	it('a cut is logged and reconnected after the first back-off, every time (a connection that carried bytes resets it)', async () => {
		const t = trigger();
		// The watchdog looks every 300 ms (a quarter of the timeout): a connection's end is noticed
		// within that, then the back-off (700 ms) runs.
		const response = await startActivityStream(t.context, {
			...FAST,
			keepAliveTimeoutMs: 1_200,
			backoffMs: 700,
		});
		try {
			for (let n = 2; n <= 4; n++) {
				await until('the stream', () => sb.activityStream.connections.size === 1);
				await wait(250); // keep-alives: the connection carried bytes
				const at = cut();
				const gap = (await requestAt(n)) - at;
				// The back-off: not at once, and not growing (1,400, 2,800 ms) across cuts.
				expect(gap).toBeGreaterThanOrEqual(650);
				expect(gap).toBeLessThan(1_400);
			}
			expect(logged(t, /the activity stream dropped/, 'warn').length).toBeGreaterThanOrEqual(3);
			expect(logged(t, /longer than/)).toEqual([]);
			// Keep-alives are empty lines, not lines that fail to parse.
			expect(logged(t, /not JSON/)).toEqual([]);
		} finally {
			const before = logged(t, /dropped/).length;
			await response.closeFunction!();
			// Closing the connection itself is no drop.
			expect(logged(t, /dropped/)).toHaveLength(before);
		}
	});

	it('connections the service accepts and closes without a byte: the wait doubles each time', async () => {
		// No keep-alive: a connection carries no byte unless the trigger's subscriptions have events.
		sb.activityStream.keepAliveMs = 60_000;
		const t = trigger();
		// The watchdog looks every 100 ms (a quarter of the timeout): each end is noticed within that.
		const response = await startActivityStream(t.context, {
			...FAST,
			keepAliveTimeoutMs: 400,
			backoffMs: 200,
		});
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			// From now on every connection is closed as soon as it opens.
			let closing = true;
			const closer = (async () => {
				while (closing) {
					cut();
					await wait(5);
				}
			})();
			await requestAt(5, 10_000);
			closing = false;
			await closer;
			const gaps = [2, 3, 4].map((n) => opens[n].at - opens[n - 1].at);
			// 400, 800 and 1,600 ms (each with up to 100 ms for the watchdog and the cut).
			expect(gaps[0]).toBeGreaterThanOrEqual(380);
			expect(gaps[1]).toBeGreaterThanOrEqual(780);
			expect(gaps[2]).toBeGreaterThanOrEqual(1_580);
			expect(gaps[2]).toBeLessThan(2_400);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a silent connection is noticed within a quarter of the keep-alive timeout after it ends', async () => {
		// Keep-Alive Timeout at its least (1 s): the watchdog looks every 250 ms.
		const t = trigger({ parameters: { options: { keepAliveTimeout: 1 } } });
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 50 });
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			// A keep-alive comes at 100 ms (the sandbox's beat); then the connection goes silent.
			await wait(150);
			for (const c of sb.activityStream.connections) c.stalled = true;
			const opened = opens[0].at;
			// Silent from about 100 ms: past the timeout at 1.1 s, seen at the look at 1.25 s (1.5 s at
			// the latest), and reconnected 50 ms later. A watchdog that looked once a second would see
			// it at 2 s.
			const again = await requestAt(2, 5_000);
			expect(again - opened).toBeGreaterThanOrEqual(1_100);
			expect(again - opened).toBeLessThan(1_750);
			expect(logged(t, /was silent for 1 s; reconnecting/, 'warn')).toHaveLength(1);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a refusal with 429 at activation waits the rate-limit back-off, and says so in the log', async () => {
		sb.faults.rules.push({ status: 429, remaining: 1, path: '^/2/activity/stream$' });
		const t = trigger();
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 50 });
		try {
			const gap = (await requestAt(2)) - (await requestAt(1));
			expect(gap).toBeGreaterThanOrEqual(1_400);
			expect(logged(t, /could not be opened .*; retrying$/, 'warn')).toHaveLength(1);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a reconnection refused with 503 waits the back-off, one refused with 429 the rate-limit back-off', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 50 });
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			await wait(250);
			sb.faults.rules.push({ status: 503, remaining: 1, path: '^/2/activity/stream$' });
			cut();
			const refused503 = await requestAt(2);
			expect((await requestAt(3)) - refused503).toBeLessThan(1_000);
			await until('the stream', () => sb.activityStream.connections.size === 1);
			await wait(250);
			sb.faults.rules.push({ status: 429, remaining: 1, path: '^/2/activity/stream$' });
			cut();
			const refused429 = await requestAt(4);
			expect((await requestAt(5)) - refused429).toBeGreaterThanOrEqual(1_400);
			// Math.round(1,500 ms / 1000): the wait in seconds.
			expect(logged(t, /could not be opened .*; retrying in 2 s$/, 'warn')).toHaveLength(1);
		} finally {
			await response.closeFunction!();
		}
	});

	it('the options are in seconds: Keep-Alive Timeout and Max Reconnect Delay', async () => {
		const t = trigger({ parameters: { options: { keepAliveTimeout: 1, maxBackoff: 1 } } });
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 3_000 });
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			// Keep-alives every 100 ms: a 1 s timeout keeps the connection.
			await wait(1_500);
			expect(streamRequests()).toHaveLength(1);
			// A cut: the wait is the back-off (3 s) capped at Max Reconnect Delay (1 s).
			const at = cut();
			const gap = (await requestAt(2)) - at;
			expect(gap).toBeGreaterThanOrEqual(900);
			expect(gap).toBeLessThan(2_000);
			// Silence: closed after the 1 s timeout, and the log says how long in seconds.
			await until('the stream', () => sb.activityStream.connections.size === 1);
			for (const c of sb.activityStream.connections)
				(c as unknown as { stalled: boolean }).stalled = true;
			await requestAt(3, 5_000);
			expect(logged(t, /was silent for 1 s; reconnecting/, 'warn').length).toBeGreaterThan(0);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('bounded catch-ups and checkpoints', () => {
	it('a bounded catch-up that the service ends moves the position to its end, and the next connection follows at once', async () => {
		const staticData: IDataObject = { caughtUpTo: new Date(Date.now() - 3 * MIN).toISOString() };
		const t = trigger({ staticData });
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 3_000 });
		try {
			const first = await until('the first request', () => streamRequests()[0]);
			expect(first.query.end_time).toMatch(/Z$/);
			const gap = (await requestAt(2)) - first.at;
			expect(gap).toBeLessThan(1_500);
			const second = streamRequests()[1];
			expect(second.query.end_time).toBeUndefined();
			expect(Date.parse(String(staticData.caughtUpTo))).toBe(
				Date.parse(String(first.query.end_time)),
			);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a connection without an end is closed at the checkpoint (the position two minutes old) for a bounded catch-up', async () => {
		const t = trigger();
		// No silence check in the way of the clock's jump; a back-off long enough to tell "at once".
		const response = await startActivityStream(t.context, {
			...FAST,
			keepAliveTimeoutMs: 600_000,
			backoffMs: 5_000,
		});
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			expect(streamRequests()[0].query.end_time).toBeUndefined();
			const real = Date.now.bind(Date);
			jest.spyOn(Date, 'now').mockImplementation(() => real() + 3 * MIN);
			const jumped = performance.now();
			const at = await requestAt(2, 4_000);
			expect(at - jumped).toBeLessThan(2_500);
			expect(streamRequests()[1].query.end_time).toMatch(/Z$/);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('a bounded catch-up that goes silent', () => {
	it('is closed by the watchdog and asked again from the same start, and its whole backlog runs', async () => {
		// The trigger's subscriptions with three events of eight minutes ago on them (a backlog).
		const earlier = trigger({ workflowId: 'wf-silent' });
		const r = await startActivityStream(earlier.context, { ...FAST, removalGraceMs: 60_000 });
		await until('the earlier stream', () => sb.activityStream.connections.size === 1);
		await r.closeFunction!();
		await until('closed', () => sb.activityStream.connections.size === 0);
		forgetStreamMemory();
		const backlog = await post('missed', 3);
		for (const entry of (sb.activityStream as unknown as { log: Array<{ at: number }> }).log)
			entry.at = Date.now() - 8 * MIN;
		// The service sends the backlog one line every 2 s and no keep-alive between: silent longer
		// than the trigger's timeout (600 ms).
		const stream = sb.activityStream as unknown as { backlogLineMs: number; keepAliveMs: number };
		stream.backlogLineMs = 2_000;
		stream.keepAliveMs = 60_000;
		const staticData: IDataObject = { caughtUpTo: new Date(Date.now() - 10 * MIN).toISOString() };
		const t = trigger({ workflowId: 'wf-silent', staticData });
		const base = opens.length;
		const response = await startActivityStream(t.context, { ...FAST, keepAliveTimeoutMs: 600 });
		try {
			const first = opens[base].query;
			expect(first.end_time).toMatch(/Z$/);
			stream.backlogLineMs = 0;
			stream.keepAliveMs = 100;
			await requestAt(base + 2, 5_000);
			expect(opens[base + 1].query.start_time).toBe(first.start_time);
			expect(logged(t, /was silent/, 'warn').length).toBeGreaterThan(0);
			await until('the whole backlog', () => t.emitted.length === 3, 5_000);
			expect(ids(t.emitted)).toEqual(backlog);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('lines that are not events', () => {
	it('a line that is not JSON, JSON that is not an object, and an error report: logged or skipped, the connection kept', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const [conn] = [...sb.activityStream.connections];
			conn.res.write('not json\r\n');
			for (const line of ['null', '1', '"x"', '[1]', 'true']) conn.res.write(`${line}\r\n`);
			conn.res.write(
				`${JSON.stringify({ errors: [{ type: 'https://api.example/problems/a', title: 'A' }, { title: 'B' }] })}\r\n`,
			);
			await wait(300);
			expect(logged(t, /sent a line that is not JSON/, 'warn')).toHaveLength(1);
			expect(logged(t, /the activity stream reported/, 'warn').map((l) => l.message)).toEqual([
				'Platform Trigger: the activity stream reported https://api.example/problems/a, B',
			]);
			expect(logged(t, /dropped/)).toEqual([]);
			expect(streamRequests()).toHaveLength(1);
			const sent = await post('after the odd lines', 1);
			await until('the run', () => t.emitted.length === 1);
			expect(ids(t.emitted)).toEqual(sent);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('an error report outside the contract', () => {
	it('an error with neither type nor title is logged by its detail, or said to have none', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const [conn] = [...sb.activityStream.connections];
			// The contract's Problem has a type and a title; a line without them still tells the operator
			// what it can.
			conn.res.write(
				`${JSON.stringify({ errors: [{ detail: 'Upstream is restarting' }, { status: 500 }] })}\r\n`,
			);
			await until('the log line', () => logged(t, /the activity stream reported/).length);
			expect(logged(t, /the activity stream reported/, 'warn').map((l) => l.message)).toEqual([
				'Platform Trigger: the activity stream reported Upstream is restarting, an error without a type or title',
			]);
			expect(streamRequests()).toHaveLength(1);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('lines the contract allows besides events and error reports', () => {
	it('an object with neither data nor errors is skipped, and an event with errors beside it runs', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const [conn] = [...sb.activityStream.connections];
			const [sub] = ours();
			// The contract's ActivityStreamingResponse: `data` and `errors`, each optional.
			conn.res.write('{}\r\n');
			const data = {
				event_uuid: '1795000000000000001',
				event_type: 'post.create',
				filter: sub.filter,
				tag: sub.tag,
				payload: { id: '1795000000000000001', text: 'with a partial error' },
			};
			const errors = [
				{ type: 'https://api.example/problems/resource-not-found', title: 'Not Found' },
			];
			conn.res.write(`${JSON.stringify({ data, errors })}\r\n`);
			await until('the run', () => t.emitted.length === 1);
			expect(ids(t.emitted)).toEqual([data.event_uuid]);
			const sent = await post('after them', 1);
			await until('the next run', () => t.emitted.length === 2);
			expect(ids(t.emitted)).toEqual([data.event_uuid, ...sent]);
			expect(logged(t, /dropped|reported/)).toEqual([]);
			expect(streamRequests()).toHaveLength(1);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('older static data', () => {
	it('a record of the version before the position (streamEventAt only) is read as the position', async () => {
		const at = Date.now() - 1.5 * MIN;
		const staticData: IDataObject = { streamEventAt: new Date(at).toISOString() };
		const t = trigger({ staticData });
		const response = await startActivityStream(t.context, FAST);
		try {
			const first = await until('the first request', () => streamRequests()[0]);
			expect(first.query).toEqual({
				backfill_minutes: String(catchUpQuery(at, Date.now()).backfill_minutes),
			});
			expect(staticData.streamEventAt).toBeUndefined();
			expect(Date.parse(String(staticData.caughtUpTo))).toBe(at);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a record with both takes the position, not the older field', async () => {
		const at = Date.now() - 1.5 * MIN;
		const staticData: IDataObject = {
			caughtUpTo: new Date(at).toISOString(),
			streamEventAt: new Date(Date.now() - 30 * MIN).toISOString(),
		};
		const t = trigger({ staticData });
		const response = await startActivityStream(t.context, FAST);
		try {
			const first = await until('the first request', () => streamRequests()[0]);
			expect(first.query).toEqual({
				backfill_minutes: String(catchUpQuery(at, Date.now()).backfill_minutes),
			});
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('two triggers in one process', () => {
	it('two workflows with the same node id, and two nodes of one workflow, each run every event', async () => {
		const triggers = [
			trigger({ workflowId: 'wf-key-1' }),
			trigger({ workflowId: 'wf-key-2' }),
			trigger({ workflowId: 'wf-key-1', nodeId: 'node-2' }),
		];
		const responses: ITriggerResponse[] = [];
		try {
			for (const t of triggers) responses.push(await startActivityStream(t.context, FAST));
			await until('three streams', () => sb.activityStream.connections.size === 3);
			const sent = await post('to every trigger', 2);
			for (const t of triggers) await until('the runs', () => t.emitted.length === 2);
			await wait(200);
			for (const t of triggers) expect(ids(t.emitted)).toEqual(sent);
		} finally {
			for (const r of responses) await r.closeFunction!();
		}
	});
});

describe("another trigger's events on the same stream", () => {
	it("the app's one stream carries every trigger's copies: each runs only those of its own subscriptions", async () => {
		const mine = trigger({ workflowId: 'wf-tag-1' });
		const other = trigger({ workflowId: 'wf-tag-2', parameters: { user: '4242' } });
		const responses = [
			await startActivityStream(mine.context, FAST),
			await startActivityStream(other.context, FAST),
		];
		try {
			await until('two streams', () => sb.activityStream.connections.size === 2);
			// A post of the other trigger's account: only its subscription matches, and both connections
			// carry the copy (tagged with the other trigger's tag).
			const sent = await sb.emit({ event_type: 'post.create', text: 'x', user_id: '4242' });
			await until("the other trigger's run", () => other.emitted.length === 1);
			await wait(300);
			expect(ids(other.emitted)).toEqual(sent.map((e) => e.event_uuid));
			expect(mine.calls).toEqual([]);
		} finally {
			for (const r of responses) await r.closeFunction!();
		}
	});
});

describe('subscriptions across a restart', () => {
	const slow = { ...FAST, removalGraceMs: 5_000 };

	async function restart(first: IDataObject, second: IDataObject) {
		const a = trigger({ workflowId: 'wf-sub', parameters: first });
		const ra = await startActivityStream(a.context, slow);
		await until('the stream', () => sb.activityStream.connections.size === 1);
		const before = ours().map((s) => ({ ...s }));
		expect(logged(a, /adopted/)).toEqual([]);
		await ra.closeFunction!();
		forgetStreamMemory();
		const b = trigger({ workflowId: 'wf-sub', parameters: second });
		const rb = await startActivityStream(b.context, slow);
		return { b, rb, before };
	}

	it('the same parameters: adopted, retagged with the new run, and logged', async () => {
		const { b, rb, before } = await restart({}, {});
		try {
			const after = ours();
			expect(after.map((s) => s.subscription_id)).toEqual(before.map((s) => s.subscription_id));
			expect(after[0].tag).not.toBe(before[0].tag);
			const tag = String(after[0].tag);
			expect(tag.startsWith(String(before[0].tag).slice(0, -8))).toBe(true);
			expect(logged(b, /adopted 1 activity stream subscriptions/, 'info')).toHaveLength(1);
			expect(
				logged(b, /1 activity subscriptions deliver to the activity stream/, 'info'),
			).toHaveLength(1);
		} finally {
			await rb.closeFunction!();
		}
	});

	it('the same filter listed with its keys in another order: adopted (the contract promises no order)', async () => {
		const params = { keyword: 'autumn' };
		const a = trigger({ workflowId: 'wf-sub', parameters: params });
		const ra = await startActivityStream(a.context, slow);
		await until('the stream', () => sb.activityStream.connections.size === 1);
		await ra.closeFunction!();
		forgetStreamMemory();
		const before = ours().map((s) => ({ ...s }));
		expect(Object.keys(before[0].filter as IDataObject)).toEqual(['user_id', 'keyword']);
		// The service lists the filter with its keys the other way round.
		for (const sub of sb.db.subscriptions.values()) {
			const { user_id, keyword } = sub.filter as IDataObject;
			sub.filter = { keyword, user_id };
		}
		const b = trigger({ workflowId: 'wf-sub', parameters: params });
		const rb = await startActivityStream(b.context, slow);
		try {
			expect(ours().map((s) => s.subscription_id)).toEqual(before.map((s) => s.subscription_id));
			expect(logged(b, /adopted 1 activity stream subscriptions/, 'info')).toHaveLength(1);
		} finally {
			await rb.closeFunction!();
		}
	});

	it('another keyword: the old subscription is deleted and one with the new filter made', async () => {
		const { b, rb, before } = await restart({ keyword: 'autumn' }, { keyword: 'winter' });
		try {
			const after = ours();
			expect(after).toHaveLength(1);
			expect(after[0].subscription_id).not.toBe(before[0].subscription_id);
			expect(after[0].filter).toMatchObject({ keyword: 'winter' });
			expect(logged(b, /adopted/)).toEqual([]);
		} finally {
			await rb.closeFunction!();
		}
	});

	it('another event: the old subscription is deleted and one of the new event made', async () => {
		const { rb, before } = await restart({ events: ['post.create'] }, { events: ['spaces.start'] });
		try {
			const after = ours();
			expect(after).toHaveLength(1);
			expect(after[0].subscription_id).not.toBe(before[0].subscription_id);
			expect(after[0].event_type).toBe('spaces.start');
		} finally {
			await rb.closeFunction!();
		}
	});
});

describe('subscriptions across a restart, among many', () => {
	it("another 60 triggers' subscriptions listed first (more than one page of 50): its own are still found and adopted", async () => {
		const slow = { ...FAST, removalGraceMs: 5_000 };
		const a = trigger({ workflowId: 'wf-many' });
		const ra = await startActivityStream(a.context, slow);
		await until('the stream', () => sb.activityStream.connections.size === 1);
		const mine = ours();
		sb.db.subscriptions.clear();
		for (let i = 0; i < 60; i++)
			sb.db.subscriptions.set(`9000${i}`, {
				...mine[0],
				subscription_id: `9000${i}`,
				tag: `n8n:wf-other-${i}:node-1:s1`,
			});
		for (const m of mine) sb.db.subscriptions.set(String(m.subscription_id), m);
		await ra.closeFunction!();
		forgetStreamMemory();
		const b = trigger({ workflowId: 'wf-many' });
		const rb = await startActivityStream(b.context, slow);
		try {
			const own = ours().filter((s) => String(s.tag).startsWith('n8n:wf-many:'));
			expect(own.map((s) => s.subscription_id)).toEqual(mine.map((s) => s.subscription_id));
			expect(ours()).toHaveLength(61);
		} finally {
			await rb.closeFunction!();
		}
	});
});

describe('closing', () => {
	it("an editor test run's close deletes its subscriptions at once", async () => {
		const t = trigger({ mode: 'manual' });
		const response = await startActivityStream(t.context, { ...FAST, removalGraceMs: 10_000 });
		await until('the stream', () => sb.activityStream.connections.size === 1);
		expect(ours()).toHaveLength(1);
		await response.closeFunction!();
		expect(ours()).toEqual([]);
	});

	it("activated again within the grace: the closed activation's deletion is cancelled (nothing listed, deleted or logged after it)", async () => {
		const timings = { ...FAST, removalGraceMs: 400 };
		const a = trigger({ workflowId: 'wf-again' });
		const ra = await startActivityStream(a.context, timings);
		await until('the stream', () => sb.activityStream.connections.size === 1);
		const before = ours().map((s) => s.subscription_id);
		await ra.closeFunction!();
		// n8n activates the saved workflow again at once (a workflow saved while active).
		const b = trigger({ workflowId: 'wf-again' });
		const rb = await startActivityStream(b.context, timings);
		try {
			const activated = sb.records.length;
			await wait(1_000);
			expect(ours().map((s) => s.subscription_id)).toEqual(before);
			const after = sb.records.slice(activated).filter((r) => r.path !== '/2/activity/stream');
			expect(after).toEqual([]);
			expect(logged(a, /subscriptions deleted|deleting/)).toEqual([]);
		} finally {
			await rb.closeFunction!();
		}
	});

	it("the active trigger's delayed deletion is logged, and so is its failure", async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, FAST);
		await until('the stream', () => sb.activityStream.connections.size === 1);
		await response.closeFunction!();
		await until('the deletion', () => ours().length === 0, 3_000);
		await until('its log', () => logged(t, /subscriptions deleted/, 'info').length === 1);

		const u = trigger();
		const again = await startActivityStream(u.context, FAST);
		await until('the stream', () => sb.activityStream.connections.size === 1);
		sb.faults.rules.push({ status: 400, remaining: 5, path: '^/2/activity/subscriptions$' });
		await again.closeFunction!();
		await until(
			'the failure in the log',
			() =>
				logged(u, /deleting the activity stream subscriptions \(tag .+\) failed/, 'error').length,
			3_000,
		);
		expect(logged(u, /subscriptions deleted/)).toEqual([]);
	});
});

describe("n8n's answer to a run", () => {
	/**
	 * A user's stop from another copy of n8n-workflow (npm may install the peer dependency beside the
	 * package): other classes with the same names.
	 */
	class ExecutionCancelledError extends Error {}
	class ForeignManualExecutionCancelledError extends ExecutionCancelledError {}

	for (const [label, make] of [
		['n8n-workflow', () => new ManualExecutionCancelledError('exec-1')],
		['another copy of n8n-workflow', () => new ForeignManualExecutionCancelledError('cancelled')],
	] as const)
		it(`a cancelled run (${label}) was started: its copies are dropped`, async () => {
			let first = true;
			const t = trigger({
				start: () => {
					if (!first) return 'started';
					first = false;
					return make();
				},
			});
			const response = await startActivityStream(t.context, { ...FAST, backoffMs: 100 });
			try {
				await until('the stream', () => sb.activityStream.connections.size === 1);
				const [sent] = await post('cancelled', 1);
				await until('the emit', () => t.calls.length === 1);
				await wait(300);
				// The catch-up after a cut sends it again: a started run's copy is dropped.
				cut();
				await requestAt(2);
				await wait(400);
				expect(t.calls.map((c) => c.id)).toEqual([sent]);
				expect(logged(t, /did not start/)).toEqual([]);
			} finally {
				await response.closeFunction!();
			}
		});

	it('runs that n8n did not start, at different times: each is fetched again; in a row, the wait doubles', async () => {
		const seen: string[] = [];
		const tries = new Map<string, number>();
		const failTimes: number[] = [];
		const t = trigger({
			start: (id) => {
				if (!seen.includes(id)) seen.push(id);
				const n = (tries.get(id) ?? 0) + 1;
				tries.set(id, n);
				// The first event fails twice in a row, the second once.
				if (n <= (seen.indexOf(id) === 0 ? 2 : 1)) {
					failTimes.push(performance.now());
					return new Error('SQLITE_BUSY');
				}
				return 'started';
			},
		});
		// A failure waits its back-off, closes the connection (noticed within the watchdog's 300 ms),
		// and the loop waits the connection back-off (800 ms) before the copy's reconnection.
		const response = await startActivityStream(t.context, {
			...FAST,
			keepAliveTimeoutMs: 1_200,
			backoffMs: 800,
		});
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const [a] = await post('fails twice', 1);
			// First failure: 800 + 800 ms; the copy fails again (two in a row): 1,600 + 800 ms.
			const r2 = await requestAt(2);
			expect(r2 - failTimes[0]).toBeGreaterThanOrEqual(1_550);
			expect(r2 - failTimes[0]).toBeLessThan(3_000);
			const r3 = await requestAt(3);
			expect(r3 - failTimes[1]).toBeGreaterThanOrEqual(2_350);
			await until('its run', () => t.emitted.length === 1);
			expect(ids(t.emitted)).toEqual([a]);
			await wait(300);
			const [b] = await post('fails once, later', 1);
			await until('its run', () => t.emitted.length === 2, 4_000);
			expect(ids(t.emitted)).toEqual([a, b]);
			expect(
				logged(t, new RegExp(`did not start the run of activity event ${b}`), 'warn'),
			).toHaveLength(1);
		} finally {
			await response.closeFunction!();
		}
	});

	it('an event n8n did not start and the stream no longer sends (24 hours later) is reported lost in the log', async () => {
		const t = trigger({ start: () => new Error('SQLITE_BUSY') });
		const response = await startActivityStream(t.context, {
			...FAST,
			keepAliveTimeoutMs: 600_000,
			backoffMs: 1_000,
		});
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const [lost] = await post('never started', 1);
			await until('the failed start', () => t.calls.length === 1);
			// Before the reconnection for its copy: the clock 25 hours on, past the service's window.
			const real = Date.now.bind(Date);
			jest.spyOn(Date, 'now').mockImplementation(() => real() + 25 * 60 * MIN);
			await until(
				'the error in the log',
				() => logged(t, new RegExp(`activity event ${lost} was not run`), 'error').length,
				6_000,
			);
			expect(t.emitted).toEqual([]);
		} finally {
			await response.closeFunction!();
		}
	});

	it("a failed start's back-off that ends while the trigger is between connections throws nothing", async () => {
		const rejections: unknown[] = [];
		const onRejection = (reason: unknown) => rejections.push(reason);
		// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code: an unhandled rejection in n8n's process is what this test rules out
		process.on('unhandledRejection', onRejection);
		let first = true;
		const t = trigger({
			start: () => {
				if (!first) return 'started';
				first = false;
				return new Error('SQLITE_BUSY');
			},
		});
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 300 });
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			await wait(150);
			const [sent] = await post('fails once', 1);
			await until('the failed start', () => t.calls.length === 1);
			// The connection drops and the service refuses the next opens: when the failed start's
			// back-off ends (300 ms), the trigger has no connection to close.
			sb.faults.rules.push({ status: 503, remaining: 2, path: '^/2/activity/stream$' });
			cut();
			await until('the run from a later copy', () => t.emitted.length === 1, 8_000);
			expect(ids(t.emitted)).toEqual([sent]);
			await wait(100);
			expect(rejections).toEqual([]);
		} finally {
			// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code
			process.off('unhandledRejection', onRejection);
			await response.closeFunction!();
		}
	});

	it('an editor test run hands its events over without a deduplication key or a donePromise', async () => {
		const t = trigger({ mode: 'manual' });
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			const sent = await post('in the editor', 1);
			await until('the run', () => t.calls.length === 1);
			expect(t.calls).toEqual([
				{ id: sent[0], key: undefined, done: false, at: expect.any(Number) },
			]);
		} finally {
			await response.closeFunction!();
		}
	});
});

/**
 * Every reconnection asks the service for a catch-up, which counts against the app's rate limit on the
 * stream: a run n8n did not start costs one reconnection (its copy comes with that catch-up), never more.
 */
describe('reconnections after runs n8n did not start', () => {
	/** n8n fails to start the first `fails` tries of each event's run, then starts it. */
	function failing(fails: number) {
		const tries = new Map<string, number>();
		const failedAt: number[] = [];
		const t = trigger({
			start: (id) => {
				const n = (tries.get(id) ?? 0) + 1;
				tries.set(id, n);
				if (n > fails) return 'started';
				failedAt.push(performance.now());
				return new Error('SQLITE_BUSY');
			},
		});
		return { t, failedAt };
	}

	it('two failed starts close together: one reconnection, even while its catch-up is still sending the copies', async () => {
		const { t, failedAt } = failing(1);
		// The back-off for the copies (1 s), then the connection's own (1 s): the reconnection comes about
		// 2 s after the first failure (and up to 300 ms later: the watchdog's period, a quarter of the
		// keep-alive timeout, which the sandbox's keep-alives every 100 ms keep far from).
		const response = await startActivityStream(t.context, {
			...FAST,
			keepAliveTimeoutMs: 1_200,
			backoffMs: 1_000,
		});
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			await wait(150);
			// The service sends a catch-up's backlog slowly: one line every 2.5 s (keep-alives between).
			sb.activityStream.backlogLineMs = 2_500;
			const [a] = await post('not started', 1);
			await until('its failed start', () => failedAt.length === 1);
			await wait(500);
			const [b] = await post('not started either, half a second later', 1);
			await until('its failed start', () => failedAt.length === 2);
			// The reconnection's catch-up sends a at once and b 2.5 s later: each runs once.
			await until('both runs', () => t.emitted.length === 2, 10_000);
			expect(ids(t.emitted)).toEqual([a, b]);
			expect(t.calls.map((c) => c.id)).toEqual([a, b, a, b]);
			// Long enough for a back-off started by the second failure (2 s from it) to have ended.
			await wait(2_000);
			expect(streamRequests()).toHaveLength(2);
		} finally {
			await response.closeFunction!();
		}
	});

	it('a copy that came on a connection the service reopened before the back-off ended: no reconnection for it', async () => {
		// Each run fails twice: the second failure, on the reconnection, backs off twice as long (1.6 s).
		const { t, failedAt } = failing(2);
		const response = await startActivityStream(t.context, {
			...FAST,
			keepAliveTimeoutMs: 1_200,
			backoffMs: 800,
		});
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			await wait(150);
			const [a] = await post('not started twice', 1);
			await until('the second failed start', () => failedAt.length === 2, 5_000);
			expect(streamRequests()).toHaveLength(2);
			// The service drops that connection at once: the trigger reconnects after 0.8 s, and the
			// copy that comes with that catch-up starts, before the 1.6 s back-off has ended.
			cut();
			await until('the run', () => t.emitted.length === 1, 5_000);
			expect(ids(t.emitted)).toEqual([a]);
			expect(streamRequests()).toHaveLength(3);
			await wait(2_500);
			expect(streamRequests()).toHaveLength(3);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('All Events', () => {
	it('with a user credential: the events of every subscription run, direct messages too', async () => {
		const t = trigger({ parameters: { events: ['*'] }, userCredential: true });
		const response = await startActivityStream(t.context, FAST);
		try {
			await until('the stream', () => sb.activityStream.connections.size === 1);
			// Every type the Events field offers, the ones added after the first twelve too (this node
			// was made after the Platform Trigger's version 3).
			expect(ours()).toHaveLength(ACTIVITY_EVENT_TYPES.length);
			const sent: string[] = [];
			for (const event_type of [
				'post.create',
				'dm.received',
				'profile.update.bio',
				'follow.follow',
			])
				for (const e of await sb.emit({ event_type, text: 'all events' })) sent.push(e.event_uuid);
			await until('every run', () => t.emitted.length === sent.length);
			await wait(200);
			expect(ids(t.emitted)).toEqual(sent);
			expect(t.emitted.map((e) => e.json.event_type)).toEqual([
				'post.create',
				'dm.received',
				'profile.update.bio',
				'follow.follow',
			]);
		} finally {
			await response.closeFunction!();
		}
	});
});

describe('closed while a reconnection is being opened', () => {
	it('the connection that opens after the close is closed at once, and the close does not wait for it', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 100 });
		// No keep-alive for a minute: nothing but the trigger ends a connection of this test.
		sb.activityStream.keepAliveMs = 60_000;
		await until('the stream', () => sb.activityStream.connections.size === 1);
		// The service answers the next request for the stream 1.5 s late.
		sb.faults.rules.push({ delayMs: 1_500, remaining: 1, path: '^/2/activity/stream$' });
		cut();
		await until('the reconnection', () => opens.length === 2);
		await wait(100);
		const closing = performance.now();
		await response.closeFunction!();
		// The open's answer comes 1.5 s after its request: the close ends with it.
		expect(performance.now() - closing).toBeLessThan(3_000);
		expect(sb.activityStream.connects).toBe(2);
		await until('no open connection', () => sb.activityStream.connections.size === 0, 1_000);
		expect(logged(t, /could not be opened/)).toEqual([]);
	});

	it('an open refused after the close logs nothing more', async () => {
		const t = trigger();
		const response = await startActivityStream(t.context, { ...FAST, backoffMs: 100 });
		await until('the stream', () => sb.activityStream.connections.size === 1);
		await wait(150);
		// The service refuses the next request for the stream with 503, 1 s late.
		sb.faults.rules.push({
			delayMs: 1_000,
			status: 503,
			remaining: 1,
			path: '^/2/activity/stream$',
		});
		cut();
		await until('the reconnection', () => opens.length === 2);
		await wait(100);
		await response.closeFunction!();
		await until('its refusal', () => sb.records.some((r) => r.status === 503), 3_000);
		await wait(200);
		expect(logged(t, /could not be opened/)).toEqual([]);
		expect(opens).toHaveLength(2);
	});
});
