'use strict';
/**
 * Platform Trigger inside n8n, against the sandbox's real CRC GETs and signed deliveries:
 *   - activation registers the webhook (the sandbox's CRC succeeds) and the activity subscription;
 *   - one run per signed event; none for forged, unsigned or tampered deliveries, none for a duplicate;
 *   - n8n down while events are sent: after the restart the node's replay job delivers the missed
 *     events, and every event has run exactly once.
 * Both tests run in regular mode and in queue mode (n8n webhook + worker).
 */
const F = require('../lib/fixtures');

const WF_ID = 'e2eTriggerFlow01';
const SINK = 'trigger';
const WEBHOOK_ID = F.uuidFrom('e2e-trigger-webhook');

function triggerWorkflow(ctx) {
	return F.triggerToSink(WF_ID, 'e2e platform trigger', {
		userId: ctx.keys.userId,
		webhookId: WEBHOOK_ID,
		description: ctx.describe('platformTriggerPosts'),
		sandboxUrl: ctx.sandboxUrl,
		sink: SINK,
	});
}

function ourWebhook(ctx) {
	return [...ctx.sandbox.db.webhooks.values()].find((w) =>
		w.url.includes(`:${ctx.inst.webhookPort}/webhook/${WEBHOOK_ID}`),
	);
}

async function waitRuns(ctx, expectedIds, { settleMs = 3000, timeoutMs = 60000 } = {}) {
	await ctx.waitFor(
		`${expectedIds.length} runs of the trigger workflow`,
		() => {
			const seen = new Set(ctx.sink(SINK).map((i) => F.eventIdOf(i.body)));
			return expectedIds.every((id) => seen.has(id));
		},
		{ timeoutMs },
	);
	await ctx.sleep(settleMs); // duplicates would arrive within this window
	const counts = {};
	for (const item of ctx.sink(SINK)) {
		const id = F.eventIdOf(item.body);
		counts[id] = (counts[id] || 0) + 1;
	}
	return counts;
}

module.exports = [
	{
		name: 'trigger: CRC at activation, one run per signed event, none for forged / unsigned / tampered',
		needs: ['platformTriggerPosts'],
		modes: ['regular', 'queue'],
		workflows: (ctx) => [triggerWorkflow(ctx)],
		publish: () => [WF_ID],
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			ctx.clearSink(SINK);
			const hook = await ctx.waitFor(
				'the trigger to register its webhook and subscription at activation',
				() => {
					const w = ourWebhook(ctx);
					return (
						w && [...sandbox.db.subscriptions.values()].some((s) => s.webhook_id === w.id) && w
					);
				},
				{ timeoutMs: 60000 },
			);
			assert.equal(hook.valid, true, 'the webhook must be valid after the CRC at registration');
			const crcAtCreate = sandbox.db.crcChecks.filter(
				(c) => c.webhook_id === hook.id || c.reason === 'create',
			);
			assert.ok(
				crcAtCreate.some((c) => c.ok),
				`no successful CRC at registration: ${JSON.stringify(crcAtCreate)}`,
			);
			const subs = [...sandbox.db.subscriptions.values()].filter((s) => s.webhook_id === hook.id);
			assert.ok(
				subs.some((s) => s.event_type === 'post.create' && s.filter.user_id === ctx.keys.userId),
				`no post.create subscription for user ${ctx.keys.userId}: ${JSON.stringify(subs)}`,
			);
			const records = ctx
				.records(0, '/2/webhooks')
				.filter((r) => r.method === 'POST' && r.path === '/2/webhooks');
			assert.ok(
				records.every((r) => r.auth && r.auth.kind === 'app'),
				'POST /2/webhooks must use the app-only bearer token',
			);

			// A later CRC check (the periodic one) is answered too, with the older &nonce= form.
			const check = await sandbox.crc(hook, { reason: 'e2e', nonce: true });
			assert.equal(check.ok, true, `CRC re-check failed: ${check.why}`);

			// Three signed events: three runs.
			const events = [];
			for (const text of ['first e2e post', 'second e2e post', 'third e2e post']) {
				const [e] = await sandbox.emit({ event_type: 'post.create', text, webhook_id: hook.id });
				assert.equal(
					e.deliveries[0].status,
					200,
					`signed delivery answered ${e.deliveries[0].status}`,
				);
				events.push(e);
			}
			// Forged, unsigned and tampered deliveries: 401, no run.
			const [forged] = await sandbox.emit({
				event_type: 'post.create',
				text: 'forged',
				forge: true,
				webhook_id: hook.id,
			});
			assert.equal(forged.deliveries[0].status, 401, 'a forged delivery must get 401');
			const [unsigned] = await sandbox.emit({
				event_type: 'post.create',
				text: 'unsigned',
				unsigned: true,
				webhook_id: hook.id,
			});
			// In queue mode the deliveries go through the nginx recipe, which refuses a delivery without a
			// signature header as malformed (400) before n8n; the trigger itself answers 401.
			assert.equal(
				unsigned.deliveries[0].status,
				ctx.inst.proxy ? 400 : 401,
				`an unsigned delivery must get ${ctx.inst.proxy ? '400 from the proxy' : '401'}`,
			);
			const original = sandbox.db.events.find((e) => e.event_uuid === events[0].event_uuid).raw;
			const tampered = original.replace('first e2e post', 'first e2e post (changed)');
			const r = await sandbox.httpRequest('POST', hook.url, {
				headers: {
					'content-type': 'application/json',
					'x-platform-webhooks-signature': sandbox.signWebhook(original),
				},
				body: tampered,
			});
			assert.equal(r.status, 401, 'a body changed after signing must get 401');
			const counts = await waitRuns(
				ctx,
				events.map((e) => e.event_uuid),
			);
			for (const e of events)
				assert.equal(
					counts[e.event_uuid],
					1,
					`event ${e.event_uuid} ran ${counts[e.event_uuid]} times`,
				);
			assert.equal(Object.keys(counts).length, 3, `unexpected runs: ${JSON.stringify(counts)}`);
			// Runs finish in any order, so look the first post's item up rather than
			// taking the sink's first entry.
			const items = ctx.sink(SINK).map((s) => s.body);
			const item = items.find((b) => JSON.stringify(b).includes('first e2e post'));
			assert.ok(item, `an item carries the first post: ${JSON.stringify(items).slice(0, 300)}`);
			assert.equal(item.event_type, 'post.create');
			if (ctx.mode === 'queue')
				assert.ok(ctx.workerExecutions() >= 3, 'in queue mode the worker runs the executions');
			ctx.triggerEvents = events.map((e) => e.event_uuid);
		},
	},
	{
		name: 'trigger: a delivery repeated by the service (same event id) runs the workflow once',
		needs: ['platformTriggerPosts'],
		modes: ['regular', 'queue'],
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const hook = ourWebhook(ctx);
			assert.ok(hook, 'the trigger webhook must exist (previous test)');
			const [e] = await sandbox.emit({
				event_type: 'post.create',
				text: 'delivered twice',
				webhook_id: hook.id,
			});
			assert.equal(e.deliveries[0].status, 200);
			await waitRuns(ctx, [e.event_uuid], { settleMs: 1500 });
			const stored = ctx.inst.staticData(WF_ID);
			const original = sandbox.db.events.find((x) => x.event_uuid === e.event_uuid).raw;
			const dup = await sandbox.deliver(hook, original, { event_uuid: e.event_uuid });
			assert.equal(dup.status, 200, 'a duplicate delivery is still acknowledged with 200');
			const counts = await waitRuns(ctx, [e.event_uuid]);
			assert.equal(
				counts[e.event_uuid],
				1,
				`the repeated event ran ${counts[e.event_uuid]} times; the node's static data in n8n's database after the first delivery: ${JSON.stringify(stored)}`,
			);
		},
	},
	{
		name: 'trigger: events sent while n8n is down are replayed after the restart, each run exactly once',
		needs: ['platformTriggerPosts'],
		modes: ['regular', 'queue'],
		timeoutMs: 300000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			const hook = ourWebhook(ctx);
			assert.ok(hook, 'the trigger webhook must exist (previous test)');
			const before = ctx.triggerEvents || [];
			await inst.stopN8n();
			const missed = [];
			for (const text of ['sent while n8n was down 1', 'sent while n8n was down 2']) {
				const [e] = await sandbox.emit({ event_type: 'post.create', text, webhook_id: hook.id });
				assert.notEqual(e.deliveries[0].status, 200, 'n8n is down: the delivery must fail');
				missed.push(e.event_uuid);
			}
			// The node replays whole minutes of the gap (yyyymmddhhmm): restart in a later minute than
			// the one in which the missed events were sent, as after any real outage of a minute or more.
			const nextMinute = (Math.floor(Date.now() / 60000) + 1) * 60000;
			await ctx.sleep(Math.max(0, nextMinute - Date.now()) + 1000);
			const jobsBefore = sandbox.db.replayJobs.length;
			const seqBefore = sandbox.seq;
			await inst.start();
			// n8n 2.40 runs no webhook method at a restart: the node notices the gap at the first CRC
			// check or delivery it handles. The service keeps sending events: one more arrives now.
			const [after] = await ctx.waitFor(
				'n8n to take deliveries again',
				async () => {
					const sent = await sandbox.emit({
						event_type: 'post.create',
						text: 'sent after the restart',
						webhook_id: hook.id,
					});
					return sent[0].deliveries[0].status === 200 && sent;
				},
				{ timeoutMs: 60000, intervalMs: 2000 },
			);
			missed.push(after.event_uuid);
			// With n8n's workflow publication service (on by default in 2.40) a restart re-adds only
			// in-memory triggers (workflows/publication/workflow-publication-reconciler.service.js), so
			// no webhook method runs and the gap is noticed at the first delivery. With the service off,
			// init adds every webhook through checkExists (active-workflow-manager.js addWebhooks), which
			// lists the webhooks and asks for the gap at once (docs/production.md, "What happens when").
			const listed = ctx
				.records(seqBefore, '/2/webhooks')
				.filter((r) => r.method === 'GET' && r.path === '/2/webhooks');
			if (process.env.E2E_NO_PUBLICATION_SERVICE)
				assert.ok(
					listed.length > 0,
					'with the publication service off, n8n checked the webhook at start-up',
				);
			else
				assert.equal(
					listed.length,
					0,
					'with the publication service on, n8n ran no webhook method at start-up',
				);
			const job = await ctx.waitFor(
				'the trigger to create a replay job after the restart',
				() => sandbox.db.replayJobs.slice(jobsBefore).find((j) => j.webhook_id === hook.id),
				{ timeoutMs: 60000 },
			);
			await ctx.waitFor('the replay job to finish', () => job.finished_at, { timeoutMs: 60000 });
			const counts = await waitRuns(ctx, [...before, ...missed], { settleMs: 4000 });
			for (const id of [...before, ...missed])
				assert.equal(
					counts[id],
					1,
					`event ${id} ran ${counts[id] || 0} times (runs: ${JSON.stringify(counts)})`,
				);
			// In queue mode each webhook process notices the gap at its first request; the service
			// answers the later ones 'conflict' (a replay job is running), which the node accepts.
			const replays = ctx.records(seqBefore, '/2/webhooks/replay');
			const replayRecord = replays.find((r) => r.status === 200);
			assert.ok(
				replayRecord,
				`POST /2/webhooks/replay answered 200 (answers: ${replays.map((r) => r.status).join(', ')})`,
			);
			for (const r of replays)
				assert.ok(
					r.status === 200 || r.status === 409,
					`a replay request after the restart answered ${r.status}: ${JSON.stringify(r.response ?? '')}`,
				);
			assert.match(replayRecord.body.from_date, /^[0-9]{12}$/);
		},
	},
];
