'use strict';
/**
 * Exactly once across processes, in the production topology (queue mode: PostgreSQL, Redis, n8n main,
 * two webhook processes and two workers behind the repository's nginx recipe). The service reaches a
 * deployment through its proxy, so every delivery here goes through it:
 *   - 100 events, two identical copies of each (same bytes, same signature) at the same moment, then
 *     the service's retries of 20 of them a few seconds later: each event runs once, none is lost;
 *   - 50 posts, each delivered alone in an Account Activity body and at the same instant inside a
 *     two-post batch (two different bodies): each post runs once;
 *   - the database refuses new runs for a moment (n8n answers 500 without starting them), then the
 *     service's retries come to the same processes: each event runs once, none is lost;
 *   - a rolling restart of one webhook process: 10 events sent while it is down (the proxy hands them
 *     to the other process), then the service replays them after the restart: each runs once;
 *   - kill -9 of a webhook process in the middle of deliveries, with the service's retries on: no event
 *     is lost, and only an event the killed process had queued without answering can run twice (n8n
 *     answers a delivery after it has queued the run);
 *   - a rolling restart of both webhook processes in turn, each drained at the proxy first as
 *     deploy/nginx/README.md tells operators (rolling-restart.sh: down, stop, start, up), under a steady
 *     stream of deliveries: the service gets no 5xx and no broken connection, each event runs once.
 */
const F = require('../lib/fixtures');
const H = require('../lib/host');
const { recordEvents, pool, runsOf: runsIn, assertOnce } = require('../lib/once');

const WF_ID = 'e2eQueueOnce001';
const SINK = 'queue-once';
const runsOf = (ctx, ids, options) => runsIn(ctx, SINK, ids, options);
const WEBHOOK_ID = F.uuidFrom('e2e-queue-once');
/**
 * Deliveries a second during the drained rolling restart. While one process is out, the other carries
 * them all, on 2 cores shared with the starting process (about 10 s of most of the CPU), 2 workers
 * running every event, PostgreSQL, Redis and nginx. At 8 a second its answers slowed by about a second
 * per second from the drain on (2.4 s, 4.3 s, ... 10 s): the service's timeouts and retries then
 * exceeded nginx's 64 POST connections per address (429). The promise under test is the drain's (no
 * 5xx, each event once), not one process's capacity, which the capacity benchmark measures.
 */
const ROLLING_PER_SECOND = 4;

function hookOf(ctx) {
	return [...ctx.sandbox.db.webhooks.values()].find(
		(w) => w.valid && w.url.includes(`:${ctx.inst.webhookPort}/webhook/${WEBHOOK_ID}`),
	);
}

/** Waits for replay jobs to end, then starts one over [from, now] for the webhook. */
async function replay(ctx, hook, from) {
	const { sandbox } = ctx;
	await ctx.waitFor(
		'running replay jobs to finish',
		() => !sandbox.db.replayJobs.some((j) => j.state === 'running'),
		{ timeoutMs: 60000 },
	);
	const job = sandbox.startReplay(
		hook,
		new Date(Math.floor(from / 60000) * 60000),
		new Date(Date.now() + 60000),
	);
	await ctx.waitFor('the replay job to finish', () => job.finished_at, { timeoutMs: 120000 });
	return job;
}

/**
 * Delivery attempts grouped by the second they were sent (since `started`): per second the count, then
 * ok / 429 / other 4xx-5xx / no answer, and the slowest answer in ms. The failure's own evidence of when
 * answers slowed down.
 */
function timeline(attempts, started) {
	const rows = new Map();
	for (const d of attempts) {
		const sent = Date.parse(d.at) - (d.ms || 0);
		const second = Math.floor((sent - started) / 1000);
		const row = rows.get(second) || { n: 0, ok: 0, r429: 0, bad: 0, none: 0, max: 0 };
		row.n++;
		if (d.ok) row.ok++;
		else if (d.status === 429) row.r429++;
		else if (d.error) row.none++;
		else row.bad++;
		row.max = Math.max(row.max, d.ms || 0);
		rows.set(second, row);
	}
	return [...rows.entries()]
		.sort((a, b) => a[0] - b[0])
		.map(([s, r]) => `${s}:${r.n} ${r.ok}/${r.r429}/${r.bad}/${r.none} ${r.max}ms`)
		.join(', ');
}

module.exports = [
	{
		name: 'queue once: 100 events delivered twice at once through the proxy, then the service retries 20: each runs once',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 240000,
		workflows: (ctx) => [
			F.triggerToSink(WF_ID, 'e2e queue exactly once', {
				userId: ctx.keys.userId,
				webhookId: WEBHOOK_ID,
				description: ctx.describe('platformTriggerPosts'),
				sandboxUrl: ctx.sandboxUrl,
				sink: SINK,
			}),
		],
		publish: () => [WF_ID],
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			assert.ok(
				inst.proxy && inst.webhooks.length === 2,
				'queue mode runs 2 webhook processes behind the proxy',
			);
			const hook = await ctx.waitFor('the trigger to register its webhook', () => hookOf(ctx), {
				timeoutMs: 90000,
			});
			const events = await recordEvents(ctx, hook, 100, 'delivered twice at once');
			const answers = await pool(events, 8, (e) =>
				Promise.all([0, 1].map(() => sandbox.deliver(hook, e.raw, { event_uuid: e.id }))),
			);
			const refused = answers.flat().filter((d) => d.status !== 200);
			assert.equal(
				refused.length,
				0,
				`copies not acknowledged: ${JSON.stringify(refused.slice(0, 3))}`,
			);
			const ids = events.map((e) => e.id);
			assertOnce(ctx, ids, await runsOf(ctx, ids), '100 events, two copies each at once');
			// A few seconds later the service sends 20 of them again (their acknowledgements did not reach it).
			await ctx.sleep(3000);
			const again = await sandbox.redeliver(ids.slice(0, 20));
			assert.ok(
				again.every((d) => d.status === 200),
				'the retries are acknowledged',
			);
			assertOnce(ctx, ids, await runsOf(ctx, ids), 'after the service retried 20 of them');
			ctx.queueOnce = { hook, ids };
		},
	},
	{
		name: 'queue once: 50 posts each delivered alone and, at the same instant, inside a two-post Account Activity batch through the proxy: each post runs once',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			assert.ok(ctx.queueOnce, 'runs after the first queue-once test (its trigger and webhook)');
			const { hook } = ctx.queueOnce;
			const account = ctx.keys.userId;
			const first = 1950000000000000000n + BigInt(Date.now() % 1e9) * 1000n;
			const pairs = Array.from({ length: 50 }, (_, i) => [
				String(first + BigInt(2 * i)),
				String(first + BigInt(2 * i + 1)),
			]);
			// The shape the service batches an account's events in: one body may carry several.
			const body = (ids) =>
				JSON.stringify({
					for_user_id: account,
					tweet_create_events: ids.map((id) => ({
						id_str: id,
						text: `in two envelopes ${id}`,
						user: { id_str: account },
					})),
				});
			const answers = await pool(pairs, 5, ([alone, other]) =>
				Promise.all([
					sandbox.deliver(hook, body([alone])),
					sandbox.deliver(hook, body([alone, other])),
				]),
			);
			const refused = answers.flat().filter((d) => d.status !== 200);
			assert.equal(
				refused.length,
				0,
				`bodies not acknowledged: ${JSON.stringify(refused.slice(0, 3))}`,
			);
			const ids = pairs.flat().map((id) => `post.create:${id}`);
			assertOnce(
				ctx,
				ids,
				await runsOf(ctx, ids),
				'50 posts alone and in a batch at the same instant',
			);
		},
	},
	{
		name: 'queue once: the database refuses new runs for a moment (n8n answers 500), the service retries: each event runs once, none lost',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			assert.ok(ctx.queueOnce, 'runs after the first queue-once test (its trigger and webhook)');
			assert.ok(inst.pg, 'the queue topology runs its own PostgreSQL');
			const { hook } = ctx.queueOnce;
			const delays = sandbox.options.deliveryRetryDelaysMs;
			sandbox.options.deliveryRetryDelaysMs = [4000, 8000, 12000];
			const attempts = (id) => sandbox.db.deliveries.filter((d) => d.event_uuid === id);
			try {
				const events = await recordEvents(ctx, hook, 10, 'delivered while runs are refused');
				const ids = events.map((e) => e.id);
				// Every new execution row is refused: n8n cannot start a run and answers 500.
				inst.pg.psql(
					'alter table execution_entity add constraint e2e_refuse_runs check (false) not valid',
				);
				let answers;
				try {
					answers = await pool(events, 5, (e) =>
						sandbox.deliver(hook, e.raw, { event_uuid: e.id }),
					);
				} finally {
					inst.pg.psql('alter table execution_entity drop constraint e2e_refuse_runs');
				}
				assert.ok(
					answers.every((a) => !a.ok),
					`no delivery was acknowledged while runs were refused: ${JSON.stringify(answers.map((a) => a.status || a.error))}`,
				);
				// The service's retries reach the same processes, which must not take them for duplicates.
				await ctx.waitFor(
					'every event to be acknowledged by a retry',
					() => ids.every((id) => attempts(id).some((d) => d.ok)),
					{ timeoutMs: 60000 },
				);
				assertOnce(
					ctx,
					ids,
					await runsOf(ctx, ids),
					'runs refused by the database, then retried by the service',
				);
			} finally {
				sandbox.options.deliveryRetryDelaysMs = delays;
			}
		},
	},
	{
		name: 'queue once: rolling restart of a webhook process, 10 events sent while it is down and replayed: each runs once',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 300000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			assert.ok(ctx.queueOnce, 'the previous test registered the webhook');
			const { hook, ids } = ctx.queueOnce;
			const from = Date.now();
			await inst.stopWebhook(1);
			const down = [];
			for (let i = 0; i < 10; i++) {
				const [e] = await sandbox.emit({
					event_type: 'post.create',
					text: `sent while webhook process 2 is down ${i}`,
					webhook_id: hook.id,
				});
				assert.equal(
					e.deliveries[0].status,
					200,
					`the proxy hands a delivery to the process that is up: ${JSON.stringify(e.deliveries[0])}`,
				);
				down.push(e.event_uuid);
			}
			await inst.startWebhook(1);
			// The service replays the window (a replay job sends every event of it again, through the proxy).
			const job = await replay(ctx, hook, from);
			assert.ok(job.delivered >= 10, `the replay re-sent ${job.delivered} events`);
			const counts = await runsOf(ctx, down);
			assertOnce(
				ctx,
				down,
				counts,
				'10 events sent while a webhook process was down, then replayed',
			);
			assertOnce(ctx, ids, counts, 'the earlier 100 events');
			ctx.queueOnce.down = down;
		},
	},
	{
		name: 'queue once: kill -9 of a webhook process in the middle of deliveries: no event lost, none acknowledged runs twice',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 300000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			assert.ok(ctx.queueOnce, 'the first test registered the webhook');
			const { hook } = ctx.queueOnce;
			const delays = sandbox.options.deliveryRetryDelaysMs;
			sandbox.options.deliveryRetryDelaysMs = [3000, 6000];
			const attempts = (id) => sandbox.db.deliveries.filter((d) => d.event_uuid === id);
			const dead = () =>
				!inst.webhooks[0].child ||
				inst.webhooks[0].child.exitCode !== null ||
				inst.webhooks[0].child.signalCode;
			try {
				// The kill must catch deliveries in flight at the killed process (which events the proxy
				// sends there depends on their ids): a round whose kill caught none is repeated.
				const ids = [];
				let retried = [];
				for (let round = 1; round <= 3 && retried.length === 0; round++) {
					if (dead()) await inst.startWebhook(0);
					const events = await recordEvents(
						ctx,
						hook,
						40,
						`delivered while a process is killed (${round})`,
					);
					const roundIds = events.map((e) => e.id);
					ids.push(...roundIds);
					let killed;
					await pool(events, 12, async (e, i) => {
						if (i === 12) killed = inst.stopWebhook(0, { hard: true });
						return sandbox.deliver(hook, e.raw, { event_uuid: e.id });
					});
					await killed;
					// Every event is acknowledged in the end (the proxy hands retries to the live process).
					await ctx.waitFor(
						'every event to be acknowledged',
						() => roundIds.every((id) => attempts(id).some((d) => d.ok)),
						{ timeoutMs: 30000 },
					);
					retried = roundIds.filter((id) => attempts(id).length > 1);
					H.log(
						`kill -9, round ${round}: ${retried.length} of 40 events were retried by the service`,
					);
				}
				assert.ok(
					retried.length > 0,
					'the kill caught deliveries in flight (the service retried some) in one of 3 rounds',
				);
				const counts = await runsOf(ctx, ids, { timeoutMs: 20000 });
				const lost = ids.filter((id) => !counts[id]);
				// n8n answers once it has queued the run: an acknowledged event was queued, so none is lost.
				assert.equal(lost.length, 0, `events that never ran: ${lost.join(', ')}`);
				// A run twice is the kill between queueing the run and answering (the service, without its
				// 200, sends the event again): never an event whose first delivery was acknowledged.
				const twice = ids.filter((id) => counts[id] > 1);
				H.log(
					`kill -9: ${twice.length} events ran twice (queued by the killed process, not acknowledged)`,
				);
				for (const id of twice)
					assert.ok(
						!attempts(id)[0].ok && counts[id] === 2,
						`${id} ran ${counts[id]} times though its first delivery was acknowledged: ${attempts(id)[0].ok}`,
					);
			} finally {
				sandbox.options.deliveryRetryDelaysMs = delays;
				if (dead()) await inst.startWebhook(0);
			}
		},
	},
	{
		name: 'queue once: rolling restart of both webhook processes, each drained at the proxy first, under a steady stream of deliveries: no 5xx, each event runs once',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 240000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			assert.ok(ctx.queueOnce, 'the first test registered the webhook');
			const { hook } = ctx.queueOnce;
			const delays = sandbox.options.deliveryRetryDelaysMs;
			// A delivery that fails is retried (so that a failure shows as a failed attempt, not a lost event).
			sandbox.options.deliveryRetryDelaysMs = [2000, 4000, 8000];
			const sent = [];
			const answers = [];
			let streaming = true;
			// The service's steady stream through the proxy, each delivery its own event.
			const stream = (async () => {
				for (let round = 0; streaming; round++) {
					const events = await recordEvents(
						ctx,
						hook,
						ROLLING_PER_SECOND,
						`during a rolling restart ${round}`,
					);
					for (const e of events) {
						sent.push(e.id);
						answers.push(sandbox.deliver(hook, e.raw, { event_uuid: e.id }));
						await ctx.sleep(1000 / ROLLING_PER_SECOND);
					}
				}
			})();
			const phases = [];
			const marks = [];
			const started = Date.now();
			const mark = (what) => marks.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)}`);
			try {
				await ctx.sleep(2000);
				for (const i of [0, 1]) {
					const t = [Date.now()];
					mark(`drain ${i + 1}`);
					await inst.setWebhookDown(i, true); // out of the ring; resolves once nothing is in flight
					t.push(Date.now());
					mark(`stop ${i + 1}`);
					await inst.stopWebhook(i); // SIGTERM: n8n's graceful shutdown
					t.push(Date.now());
					mark(`start ${i + 1}`);
					await inst.startWebhook(i);
					await inst.setWebhookDown(i, false); // ready, then back in the ring
					t.push(Date.now());
					mark(`back ${i + 1}`);
					phases.push(
						`process ${i + 1}: drained in ${t[1] - t[0]} ms, stopped in ${t[2] - t[1]} ms, back in ${t[3] - t[2]} ms`,
					);
				}
				await ctx.sleep(2000);
			} finally {
				streaming = false;
				await stream;
				await Promise.all(answers);
			}
			const ids = new Set(sent);
			try {
				// Every event acknowledged in the end (a retry included, should one have been needed).
				const attempts = () => sandbox.db.deliveries.filter((d) => ids.has(d.event_uuid));
				const unacknowledged = () => {
					const acknowledged = new Set(
						attempts()
							.filter((d) => d.ok)
							.map((d) => d.event_uuid),
					);
					return sent.filter((id) => !acknowledged.has(id));
				};
				await ctx
					.waitFor('every event to be acknowledged', () => unacknowledged().length === 0, {
						timeoutMs: 30000,
					})
					.catch((error) => {
						// Which events, and what their attempts were answered: the failure's own evidence.
						H.log(`attempts by second since the stream began: ${timeline(attempts(), started)}`);
						H.log(`restart marks (s since the stream began): ${marks.join('; ')}`);
						const missing = new Set(unacknowledged());
						const seen = attempts()
							.filter((d) => missing.has(d.event_uuid))
							.map((d) => [d.event_uuid, d.status, d.error, d.ms ?? d.durationMs]);
						H.log(`not acknowledged: ${missing.size}; their attempts: ${JSON.stringify(seen)}`);
						throw error;
					});
				const all = attempts();
				const failed = all.filter((d) => !d.ok);
				const by = (f) => failed.filter(f).length;
				H.log(
					`rolling restart with drain: ${sent.length} events in ${Math.round((Date.now() - started) / 1000)} s, ${all.length} deliveries: ${by((d) => d.status >= 500)} answered 5xx, ${by((d) => d.error)} without an answer, ${by((d) => !d.error && d.status < 500)} other; ${phases.join('; ')}`,
				);
				assert.equal(
					failed.length,
					0,
					`deliveries the service saw fail: ${JSON.stringify(failed.slice(0, 5).map((d) => [d.event_uuid, d.status, d.error]))}`,
				);
				assertOnce(
					ctx,
					sent,
					await runsOf(ctx, sent),
					`${sent.length} events delivered during a drained rolling restart`,
				);
			} finally {
				sandbox.options.deliveryRetryDelaysMs = delays;
			}
		},
	},
];
