'use strict';
/**
 * Platform Activity Stream Trigger inside n8n (regular and queue mode), against the sandbox's real
 * activity stream (GET /2/activity/stream: chunked, keep-alive lines, backfill):
 *   - activation subscribes without a webhook and opens the stream; each event runs once;
 *   - the stream cut in the middle of events, then silent (stalled): the trigger reconnects and catches
 *     up; no event is lost, none runs twice;
 *   - n8n stopped while events are sent: after the restart the trigger adopts its subscriptions and
 *     catches up; the missed events run once, the ones that ran before do not run again (n8n's
 *     deduplication key);
 *   - deactivation closes the connection and deletes the subscriptions;
 *   - an editor test run (a manual execution listening) beside the active workflow takes no event from
 *     production: every event still runs once there (the test run has its own memory and subscriptions);
 *   - a burst of events whose runs take 2 s each: at most MAX_RUNS_IN_PROGRESS (10) runs in progress at
 *     a time (n8n settles a run's donePromise when it ends: in queue mode when its worker finished
 *     the job), each event once.
 */
const F = require('../lib/fixtures');
const { activate, deactivate, session } = require('../lib/rest');
const { runsOf, assertOnce } = require('../lib/once');

const WF_ID = 'e2eActivityStrm1';
const SINK = 'activity-stream';
/** A user no other test subscribes to: only this trigger's subscription matches its posts. */
const USER = '1000000037';
const NODE_TYPE = `${F.PKG}.platformPostTriggers`;
const EXAMPLE_ID = 'exActivityStrm01';

/** The burst of the bound test: 40 events whose runs take RUN_MS each; each once, at most RUN_BOUND at a time. */
async function burst(ctx) {
	const { assert } = ctx;
	await new Promise((r) => setTimeout(r, 2000));
	ctx.clearSink(SINK_BOUND);
	const sent = await ctx.sandbox.emit({
		event_type: 'post.create',
		user_id: USER_BOUND,
		text: 'a burst of slow runs',
		count: 40,
	});
	const ids = sent.map((e) => e.event_uuid);
	const counts = await runsOf(ctx, SINK_BOUND, ids, { settleMs: 4000, timeoutMs: 180000 });
	assertOnce(ctx, ids, counts, 'a burst of slow runs');
	// Each run lasts at least RUN_MS from its start, so with at most RUN_BOUND in progress no more
	// than RUN_BOUND start within any RUN_MS: their ends at the sink, within any second (a second
	// of slack for the sink's own delay), are at most RUN_BOUND.
	const times = ctx
		.sink(SINK_BOUND)
		.map((x) => Date.parse(x.at))
		.sort((a, b) => a - b);
	let most = 0;
	for (let i = 0, j = 0; i < times.length; i++) {
		while (times[i] - times[j] > RUN_MS - 1000) j++;
		most = Math.max(most, i - j + 1);
	}
	ctx.H.log(`activity stream bound: at most ${most} runs ended within a second`);
	assert.ok(
		most <= RUN_BOUND,
		`${most} runs ended within a second: more than ${RUN_BOUND} were in progress at once`,
	);
}

function streamWorkflow(ctx) {
	const trigger = F.node(
		'Activity Stream',
		NODE_TYPE,
		1,
		{ events: ['post.create'], user: USER, options: { keepAliveTimeout: 5, maxBackoff: 5 } },
		[0, 0],
		{ credentials: F.credRef(F.CRED.bearer) },
	);
	return F.workflow(
		WF_ID,
		'e2e activity stream',
		[trigger, F.sinkNode('Record Run', ctx.sandboxUrl, SINK, [300, 0])],
		F.chain(['Activity Stream', 'Record Run']),
	);
}

const ours = (ctx) =>
	[...ctx.sandbox.db.subscriptions.values()].filter((s) =>
		String(s.tag || '').startsWith(`n8n:${WF_ID}:`),
	);
const open = (ctx) => [...ctx.sandbox.activityStream.connections];

async function post(ctx, text, count = 1) {
	const sent = await ctx.sandbox.emit({ event_type: 'post.create', user_id: USER, text, count });
	return sent.map((e) => e.event_uuid);
}

/** Waits until every id has run, then a few seconds for second runs; asserts each ran exactly once. */
async function assertRunOnce(ctx, ids, what) {
	const counts = await runsOf(ctx, SINK, ids, { settleMs: 4000 });
	assertOnce(ctx, ids, counts, what);
	ctx.assert.equal(
		Object.values(counts).reduce((a, b) => a + b, 0),
		ids.length,
		`${what}: runs for events not sent: ${JSON.stringify(counts)}`,
	);
}

const MODES = ['regular', 'queue'];

const WF_BESIDE = 'e2eActivityStrm2';
const SINK_BESIDE = 'activity-stream-beside';
/** Another user: only the subscriptions of the workflow beside a test run match its posts. */
const USER_BESIDE = '1000000038';
const BESIDE_LABEL = 'beside a test run';

/** The stream workflow whose sink records the execution mode ('production' or 'test') of each run. */
function besideWorkflow(ctx) {
	const trigger = F.node(
		'Activity Stream',
		NODE_TYPE,
		1,
		{
			events: ['post.create'],
			user: USER_BESIDE,
			options: { keepAliveTimeout: 5, maxBackoff: 2 },
		},
		[0, 0],
		{ credentials: F.credRef(F.CRED.bearerSecond) },
	);
	const sink = F.sinkNode('Record Run', ctx.sandboxUrl, SINK_BESIDE, [300, 0]);
	sink.parameters.jsonBody =
		'={{ JSON.stringify(Object.assign({}, $json, { execution_mode: $execution.mode })) }}';
	return F.workflow(
		WF_BESIDE,
		'e2e activity stream beside a test run',
		[trigger, sink],
		F.chain(['Activity Stream', 'Record Run']),
	);
}

const WF_BOUND = 'e2eActivityStrm3';
const SINK_BOUND = 'activity-stream-bound';
/** A user no other test subscribes to. */
const USER_BOUND = '1000000036';
/** activityStream.ts, MAX_RUNS_IN_PROGRESS. */
const RUN_BOUND = 10;
const RUN_MS = 2000;

/** Activity Stream -> Wait 2 s (held in memory: under n8n's 65 s) -> Record Run. */
function boundWorkflow(ctx) {
	const trigger = F.node(
		'Activity Stream',
		NODE_TYPE,
		1,
		{ events: ['post.create'], user: USER_BOUND, options: { keepAliveTimeout: 30, maxBackoff: 5 } },
		[0, 0],
		{ credentials: F.credRef(F.CRED.bearer) },
	);
	const wait = F.node(
		'Wait',
		'n8n-nodes-base.wait',
		1.1,
		{ resume: 'timeInterval', amount: RUN_MS / 1000, unit: 'seconds' },
		[200, 0],
		{ webhookId: F.uuidFrom('webhook:e2e-activity-stream-bound-wait') },
	);
	return F.workflow(
		WF_BOUND,
		'e2e activity stream bound',
		[trigger, wait, F.sinkNode('Record Run', ctx.sandboxUrl, SINK_BOUND, [400, 0])],
		F.chain(['Activity Stream', 'Wait', 'Record Run']),
	);
}

module.exports = [
	{
		name: 'activity stream: activation subscribes without a webhook, opens the stream, each event runs once',
		needs: ['platformPostTriggers'],
		modes: MODES,
		timeoutMs: 180000,
		workflows: (ctx) => {
			// Keep-alives every second: the trigger's keep-alive timeout (5 s) notices a silent stream soon.
			ctx.sandbox.activityStream.keepAliveMs = 1000;
			return [streamWorkflow(ctx)];
		},
		publish: () => [WF_ID],
		async run(ctx) {
			const { assert } = ctx;
			ctx.clearSink(SINK);
			await ctx.waitFor('the trigger to subscribe and open the stream', () => {
				const subs = ours(ctx);
				return subs.length === 1 && open(ctx).length >= 1;
			});
			const [sub] = ours(ctx);
			assert.equal(sub.event_type, 'post.create');
			assert.equal(sub.webhook_id, undefined, 'a stream subscription names no webhook');
			assert.deepEqual(sub.filter, { user_id: USER });
			const ids = await post(ctx, 'over the activity stream', 5);
			await assertRunOnce(ctx, ids, '5 events');
			ctx.streamIds = ids;
			ctx.streamSubscription = sub.subscription_id;
		},
	},
	{
		name: 'activity stream: a cut mid-stream and a stalled stream lose nothing and double nothing',
		needs: ['platformPostTriggers'],
		modes: MODES,
		timeoutMs: 180000,
		async run(ctx) {
			const { sandbox } = ctx;
			const ids = [...(ctx.streamIds || [])];
			ids.push(...(await post(ctx, 'before the cut', 3)));
			// Events sent while no connection is open: the trigger reconnects after its back-off.
			const connects = sandbox.activityStream.connects;
			for (const c of open(ctx)) c.res.destroy();
			ids.push(...(await post(ctx, 'during the cut', 3)));
			await ctx.waitFor('the trigger to reconnect', () => open(ctx).length >= 1, {
				timeoutMs: 60000,
			});
			ids.push(...(await post(ctx, 'after the cut', 2)));
			await assertRunOnce(ctx, ids, 'a cut mid-stream');
			// A stalled stream: open, but silent (not even keep-alives).
			const before = sandbox.activityStream.connects;
			for (const c of open(ctx)) c.stalled = true;
			ids.push(...(await post(ctx, 'while the stream is stalled', 2)));
			await ctx.waitFor(
				'the trigger to notice the silence and reconnect',
				() => sandbox.activityStream.connects > before && open(ctx).some((c) => !c.stalled),
				{ timeoutMs: 60000 },
			);
			ids.push(...(await post(ctx, 'after the stall', 1)));
			await assertRunOnce(ctx, ids, 'a stalled stream');
			ctx.assert.ok(sandbox.activityStream.connects >= connects + 2, 'two reconnections');
			ctx.streamIds = ids;
		},
	},
	{
		name: 'activity stream: an n8n restart catches up the events sent while it was down, each once',
		needs: ['platformPostTriggers'],
		modes: MODES,
		timeoutMs: 360000,
		async run(ctx) {
			const { assert, inst } = ctx;
			const ids = [...(ctx.streamIds || [])];
			await inst.stopN8n();
			assert.equal(ours(ctx).length, 1, 'the subscription outlives a stop of n8n');
			ids.push(...(await post(ctx, 'sent while n8n is down', 3)));
			await inst.start();
			// The restarted trigger's connection asks for what was missed.
			await ctx.waitFor(
				'the restarted trigger to open the stream with a catch-up',
				() => open(ctx).some((c) => c.query.backfill_minutes || c.query.start_time),
				{ timeoutMs: 90000 },
			);
			ids.push(...(await post(ctx, 'sent after the restart', 1)));
			await assertRunOnce(ctx, ids, 'after a restart');
			assert.deepEqual(
				ours(ctx).map((s) => s.subscription_id),
				[ctx.streamSubscription],
				'the restarted trigger adopted its subscription',
			);
		},
	},
	{
		name: 'activity stream: a burst of slow runs, at most 10 in progress at a time, each event once',
		needs: ['platformPostTriggers'],
		modes: MODES,
		timeoutMs: 240000,
		workflows: (ctx) => {
			ctx.sandbox.activityStream.keepAliveMs = 1000;
			return [boundWorkflow(ctx)];
		},
		publish: () => [WF_BOUND],
		async run(ctx) {
			const subscribed = () =>
				[...ctx.sandbox.db.subscriptions.values()].some((s) =>
					String(s.tag || '').startsWith(`n8n:${WF_BOUND}:`),
				);
			await ctx.waitFor('the trigger to subscribe and open the stream', () => subscribed());
			try {
				await burst(ctx);
			} finally {
				// The tests after this one count the stream's connections: this workflow's goes first.
				const before = open(ctx).length;
				await deactivate(ctx, WF_BOUND);
				await ctx.waitFor("the burst workflow's stream to close", () => open(ctx).length < before, {
					timeoutMs: 30000,
				});
			}
		},
	},
	{
		name: 'activity stream: deactivation closes the connection and deletes the subscriptions',
		needs: ['platformPostTriggers'],
		// One mode is enough: the trigger runs in n8n's main process in both, and the deletion waits
		// a minute after the close.
		modes: ['queue'],
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			await deactivate(ctx, WF_ID);
			await ctx.waitFor('the connection to close', () => open(ctx).length === 0, {
				timeoutMs: 30000,
			});
			const connects = sandbox.activityStream.connects;
			// Deleted a minute after the close (n8n closes a trigger alike when it stops).
			await ctx.waitFor('the subscriptions to be deleted', () => ours(ctx).length === 0, {
				timeoutMs: 120000,
			});
			const runs = ctx.sink(SINK).length;
			await post(ctx, 'after deactivation', 1);
			await ctx.sleep(3000);
			assert.equal(ctx.sink(SINK).length, runs, 'no run after deactivation');
			assert.equal(sandbox.activityStream.connects, connects, 'no reconnection after deactivation');
		},
	},
	{
		name: 'activity stream: the example sends a new post (not a reply) to the team chat, once',
		needs: ['platformPostTriggers'],
		modes: ['regular'],
		timeoutMs: 180000,
		// Activated by the test itself: the tests above count the stream's connections.
		workflows: (ctx) => [F.sandboxExample(ctx.sandboxUrl, EXAMPLE_ID)].filter(Boolean),
		async run(ctx) {
			const { assert, sandbox } = ctx;
			await activate(ctx, EXAMPLE_ID);
			const example = (s) => String(s.tag || '').startsWith(`n8n:${EXAMPLE_ID}:`);
			await ctx.waitFor(
				'the example to subscribe',
				() => [...sandbox.db.subscriptions.values()].some(example),
				{ timeoutMs: 90000 },
			);
			await ctx.waitFor('its stream to open', () => open(ctx).length >= 1);
			ctx.clearSink('team-chat');
			const [original] = await sandbox.emit({
				event_type: 'post.create',
				text: 'Hello from the stream example',
			});
			const [reply] = await sandbox.emit({
				event_type: 'post.create',
				text: 'a reply',
				reply_to: original.payload.id,
			});
			await ctx.waitFor('the team chat message', () => ctx.sink('team-chat').length >= 1, {
				timeoutMs: 60000,
			});
			await ctx.sleep(4000);
			const messages = ctx.sink('team-chat').map((m) => m.body);
			assert.deepEqual(
				messages.map((m) => m.event_id),
				[original.event_uuid],
				`one message, for the original post (not the reply ${reply.event_uuid}): ${JSON.stringify(messages)}`,
			);
			assert.equal(messages[0].text, 'New post: Hello from the stream example');
			// Its deletion a minute after the close is the deactivation test's (queue mode).
			await deactivate(ctx, EXAMPLE_ID);
		},
	},
	{
		name: 'activity stream: an editor test run beside the active workflow, every event runs once in production',
		needs: ['platformPostTriggers'],
		modes: ['regular'],
		timeoutMs: 300000,
		workflows: (ctx) => {
			ctx.sandbox.activityStream.keepAliveMs = 1000;
			// Its own app token: the sandbox labels this workflow's stream connections with it, apart from
			// those of the other active stream workflows.
			ctx.sandbox.bearers[F.SECOND_APP_BEARER_TOKEN] = { kind: 'app', label: BESIDE_LABEL };
			return [besideWorkflow(ctx)];
		},
		publish: () => [WF_BESIDE],
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const mine = (kind) => (s) =>
				String(s.tag || '').startsWith(`n8n:${WF_BESIDE}:`) && String(s.tag).includes(`:${kind}`);
			const subs = () => [...sandbox.db.subscriptions.values()];
			const streams = () => open(ctx).filter((c) => c.label === BESIDE_LABEL);
			ctx.clearSink(SINK_BESIDE);
			await ctx.waitFor(
				'the active trigger to subscribe and open the stream',
				() => subs().some(mine('s')) && streams().length >= 1,
			);
			const production = streams();
			// The editor's "Execute workflow" on the trigger: n8n runs trigger() in manual mode and
			// listens until the first event.
			const s = await session(ctx.inst.port);
			const started = await s.call('POST', `/rest/workflows/${WF_BESIDE}/run`, {
				triggerToStartFrom: { name: 'Activity Stream' },
			});
			await ctx.waitFor(
				'the test run to subscribe and open its stream',
				() => subs().some(mine('t')) && streams().some((c) => !production.includes(c)),
			);
			// The active trigger's stream drops and cannot reconnect for a moment: the test run hears the
			// events first, and the active trigger gets them from its catch-up.
			sandbox.faults.rules.push({ status: 503, remaining: 2, path: '^/2/activity/stream$' });
			for (const c of production) c.res.destroy();
			const sent = await sandbox.emit({
				event_type: 'post.create',
				user_id: USER_BESIDE,
				text: 'beside an editor test run',
				count: 3,
			});
			const ids = sent.map((e) => e.event_uuid);
			const runs = (mode) => {
				const counts = {};
				for (const item of ctx.sink(SINK_BESIDE)) {
					const body = item.body || {};
					if (body.execution_mode !== mode) continue;
					const id = F.eventIdOf(body);
					counts[id] = (counts[id] || 0) + 1;
				}
				return counts;
			};
			await ctx.waitFor(
				'every event to run in production',
				() => ids.every((id) => runs('production')[id]),
				{
					timeoutMs: 90000,
				},
			);
			await ctx.sleep(5000);
			assertOnce(ctx, ids, runs('production'), 'beside an editor test run');
			const tested = Object.keys(runs('test'));
			console.log(
				`the test run (execution ${JSON.stringify(started)}) ran ${tested.join(', ') || 'nothing'}`,
			);
			assert.ok(tested.length <= 1, `the test run ran at most its first event: ${tested}`);
			// Deactivated, the active trigger's subscriptions are deleted a minute later; a test run
			// started meanwhile has its own and leaves that deletion alone.
			await deactivate(ctx, WF_BESIDE);
			await ctx.waitFor('the active trigger to close its stream', () => streams().length === 0, {
				timeoutMs: 30000,
			});
			await s.call('POST', `/rest/workflows/${WF_BESIDE}/run`, {
				triggerToStartFrom: { name: 'Activity Stream' },
			});
			await ctx.waitFor('the second test run to subscribe', () => subs().some(mine('t')));
			await ctx.waitFor('its stream to open', () => streams().length >= 1);
			await sandbox.emit({
				event_type: 'post.create',
				user_id: USER_BESIDE,
				text: 'ends the test run',
			});
			await ctx.waitFor(
				"the active trigger's subscriptions deleted despite the test run",
				() => !subs().some(mine('s')) && !subs().some(mine('t')),
				{ timeoutMs: 120000 },
			);
		},
	},
];
