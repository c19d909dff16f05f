'use strict';
/**
 * Exactly once through the HAProxy and Caddy recipes (deploy/haproxy, deploy/caddy), each run as shipped
 * (their EDIT lines replaced by local values, e2e/lib/balancers.js) in front of the queue topology's two
 * webhook processes, in turn, beside its nginx. The service's deliveries go to the balancer's address,
 * with the same path, bodies and signatures as the service's:
 *   - 30 events, two identical copies of each at the same moment: each event runs once, none is lost;
 *   - 20 posts, each delivered alone in an Account Activity body and at the same instant inside a
 *     two-post batch (two different bodies, two different signatures): each post runs once.
 * Both hold only if the balancer sends every body that can carry one event to the same process (the
 * trigger's record of the events it ran lives in each process's memory until the run's answer is read).
 * The balancer's own log must show every key at one process and the calls spread over both.
 *
 * The second test restarts one real webhook process behind each balancer under a steady stream of
 * signed deliveries, the restarted process waiting for its database migrations meanwhile (as during an
 * upgrade). A starting n8n listens before its migrations have run and answers every call 200 "n8n is
 * starting up" without running anything, then 404 until its webhooks are served: a balancer that sends
 * it calls before n8n's readiness check answers 200 loses events. None may be acknowledged without a
 * run, none refused with 404, and each must run exactly once.
 */
const path = require('node:path');

const F = require('../lib/fixtures');
const H = require('../lib/host');
const { recordEvents, pool, runsOf: runsIn, assertOnce } = require('../lib/once');
const B = require('../lib/balancers');

const WF_ID = 'e2eBalancers0001';
const SINK = 'balancers';
const runsOf = (ctx, ids) => runsIn(ctx, SINK, ids, { settleMs: 4000, timeoutMs: 60000 });
const WEBHOOK_ID = F.uuidFrom('e2e-balancers');
const BALANCERS = ['haproxy', 'caddy'];
const RESTART_WF_ID = 'e2eBalancers0002';
const RESTART_SINK = 'balancers-restart';
const RESTART_WEBHOOK_ID = F.uuidFrom('e2e-balancers-restart');
/** How long the restarted process waits for its database migrations (the lock held meanwhile). */
const MIGRATIONS_MS = 12000;
/**
 * Deliveries a second during a restart: one webhook process carries them all (and the service's
 * retries of what the stopping one refused) for 20 to 40 s, on 2 cores shared with the rest of the
 * topology. At 8 a second, and at 4 on a machine busy with other work, its database pool (4
 * connections) ran dry: n8n then calls its database not ready and answers 503 to every call, whatever
 * the balancer does.
 */
const STREAM_PER_SECOND = 2;

/** Asserts every answer was 200 and every id ran once; returns the figures for the log. */
function assertAcknowledgedOnce(ctx, what, answers, ids, counts) {
	const refused = answers.flat().filter((d) => d.status !== 200);
	ctx.assert.equal(refused.length, 0, `${what}: not acknowledged: ${JSON.stringify(refused[0])}`);
	return assertOnce(ctx, ids, counts, what);
}

module.exports = [
	{
		name: 'balancers: through the HAProxy and Caddy recipes, copies of one event at once and the same post alone and in a batch at once: each runs once',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 180000,
		workflows: (ctx) => [
			F.triggerToSink(WF_ID, 'e2e balancers exactly once', {
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
			assert.ok(inst.webhooks.length === 2, 'queue mode runs 2 webhook processes');
			const hook = await ctx.waitFor(
				'the trigger to register its webhook',
				() =>
					[...sandbox.db.webhooks.values()].find(
						(w) => w.valid && w.url.includes(`/webhook/${WEBHOOK_ID}`),
					),
				{ timeoutMs: 90000 },
			);
			const upstreams = inst.webhooks.map((w) => `127.0.0.1:${w.port}`);
			const account = ctx.keys.userId;
			const body = (ids) =>
				JSON.stringify({
					for_user_id: account,
					tweet_create_events: ids.map((id) => ({
						id_str: id,
						text: `in two envelopes ${id}`,
						user: { id_str: account },
					})),
				});
			let first = 1960000000000000000n + BigInt(Date.now() % 1e9) * 1000n;
			for (const name of BALANCERS) {
				const balancer = await B.startBalancer(name, {
					dir: path.join(inst.dir, `balancer-${name}`),
					port: await H.freePort(),
					upstreams,
					secret: sandbox.keys.consumerSecret,
				});
				try {
					// The service's deliveries, to the balancer's address instead of the registered one.
					const url = new URL(hook.url);
					url.host = `127.0.0.1:${balancer.port}`;
					const via = { id: hook.id, url: url.toString() };

					const events = await recordEvents(ctx, hook, 30, `two copies through ${name}`);
					const copies = await pool(events, 6, (e) =>
						Promise.all([0, 1].map(() => sandbox.deliver(via, e.raw, { event_uuid: e.id }))),
					);
					const eventIds = events.map((e) => e.id);
					const copiesLine = assertAcknowledgedOnce(
						ctx,
						`${name}: 30 events, two copies each at once`,
						copies,
						eventIds,
						await runsOf(ctx, eventIds),
					);

					const pairs = Array.from({ length: 20 }, (_, i) => [
						String(first + BigInt(2 * i)),
						String(first + BigInt(2 * i + 1)),
					]);
					first += 1000n;
					const envelopes = await pool(pairs, 5, ([alone, other]) =>
						Promise.all([
							sandbox.deliver(via, body([alone])),
							sandbox.deliver(via, body([alone, other])),
						]),
					);
					const postIds = pairs.flat().map((id) => `post.create:${id}`);
					const envelopesLine = assertAcknowledgedOnce(
						ctx,
						`${name}: 20 posts alone and in a batch at once`,
						envelopes,
						postIds,
						await runsOf(ctx, postIds),
					);
					// What the balancer did: every key to one process, and the keys spread over both
					// processes (a balancer that sent everything to one process would prove nothing here).
					const calls = balancer.forwardedCalls();
					const processesOf = new Map();
					for (const c of calls) {
						if (!processesOf.has(c.route)) processesOf.set(c.route, new Set());
						processesOf.get(c.route).add(c.upstream);
					}
					const split = [...processesOf].filter(([, set]) => set.size > 1);
					assert.equal(
						split.length,
						0,
						`${name} sent one key to two processes: ${JSON.stringify(split.slice(0, 3).map(([k, set]) => [k, [...set]]))}`,
					);
					const perProcess = upstreams.map((u) => calls.filter((c) => c.upstream === u).length);
					assert.ok(
						perProcess.every((n) => n > 0),
						`${name} spread the deliveries over both processes: ${perProcess.join(' and ')} calls`,
					);
					H.log(
						`balancer ${name}: two copies at once: ${copiesLine}; alone and in a batch at once: ${envelopesLine}; ${calls.length} calls, ${processesOf.size} keys, ${perProcess.join(' + ')} calls per process`,
					);
				} finally {
					await balancer.stop();
				}
			}
		},
	},
	{
		name: 'balancers: a webhook process restarted behind the HAProxy and Caddy recipes while its database migrations run, under a steady stream of deliveries: none acknowledged without a run, each runs once',
		needs: ['platformTriggerPosts'],
		modes: ['queue'],
		timeoutMs: 600000,
		workflows: (ctx) => [
			F.triggerToSink(RESTART_WF_ID, 'e2e balancers restart', {
				userId: ctx.keys.userId,
				webhookId: RESTART_WEBHOOK_ID,
				description: ctx.describe('platformTriggerPosts'),
				sandboxUrl: ctx.sandboxUrl,
				sink: RESTART_SINK,
			}),
		],
		publish: () => [RESTART_WF_ID],
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			assert.ok(inst.webhooks.length === 2, 'queue mode runs 2 webhook processes');
			assert.ok(inst.pg, 'the queue topology runs its own PostgreSQL');
			const hook = await ctx.waitFor(
				'the trigger to register its webhook',
				() =>
					[...sandbox.db.webhooks.values()].find(
						(w) => w.valid && w.url.includes(`/webhook/${RESTART_WEBHOOK_ID}`),
					),
				{ timeoutMs: 90000 },
			);
			const upstreams = inst.webhooks.map((w) => `127.0.0.1:${w.port}`);
			const delays = sandbox.options.deliveryRetryDelaysMs;
			// The service retries a delivery it saw fail, so that a refused delivery shows as a failed
			// attempt and a later run; only one acknowledged without a run is lost for good.
			sandbox.options.deliveryRetryDelaysMs = [2000, 4000, 8000, 16000, 32000];
			const checks = [];
			try {
				for (const [n, name] of BALANCERS.entries()) {
					const restarted = n % 2; // one process behind each balancer, each process once
					const balancer = await B.startBalancer(name, {
						dir: path.join(inst.dir, `balancer-restart-${name}`),
						port: await H.freePort(),
						upstreams,
						secret: sandbox.keys.consumerSecret,
					});
					try {
						const url = new URL(hook.url);
						url.host = `127.0.0.1:${balancer.port}`;
						const via = { id: hook.id, url: url.toString() };
						const sent = [];
						const answers = [];
						let streaming = true;
						// The service's steady stream through the balancer, each delivery its own event.
						const stream = (async () => {
							for (let round = 0; streaming; round++) {
								const events = await recordEvents(
									ctx,
									hook,
									STREAM_PER_SECOND,
									`${name} restart ${round}`,
								);
								for (const e of events) {
									sent.push(e.id);
									answers.push(sandbox.deliver(via, e.raw, { event_uuid: e.id }));
									await ctx.sleep(1000 / STREAM_PER_SECOND);
								}
							}
						})();
						const upstream = upstreams[restarted];
						const callsTo = () => balancer.forwardedCalls().filter((c) => c.upstream === upstream);
						let phases;
						try {
							await ctx.sleep(2000);
							const t0 = Date.now();
							await inst.stopWebhook(restarted); // SIGTERM: n8n's graceful shutdown
							const stopped = Date.now();
							// An upgrade: the migrations run (here: their lock is held) while the process starts.
							const lock = await B.holdMigrationLock(inst.pg);
							let child;
							let waiting;
							try {
								child = await inst.startWebhook(restarted, { wait: false });
								await H.waitForLog(child, /Acquiring database migration lock/, 120000);
								waiting = Date.now();
								await ctx.sleep(MIGRATIONS_MS);
							} finally {
								await lock.release();
							}
							await H.waitForLog(child, /Webhook listener waiting for requests/, 120000);
							const ready = Date.now();
							const callsBeforeReady = callsTo().length;
							// The balancer puts the process back and sends it calls (its keys' share of the stream).
							await ctx
								.waitFor(
									`${name} to send the restarted process a call`,
									() => callsTo().length > callsBeforeReady,
									{ timeoutMs: 60000 },
								)
								.catch(() => undefined);
							await ctx.sleep(2000);
							phases = {
								stopMs: stopped - t0,
								startingMs: ready - stopped,
								migrationsMs: ready - waiting,
								callsBeforeReady,
								callsAfterReady: callsTo().length - callsBeforeReady,
							};
						} finally {
							streaming = false;
							await stream;
							await Promise.all(answers);
						}
						const ids = new Set(sent);
						const attempts = () => sandbox.db.deliveries.filter((d) => ids.has(d.event_uuid));
						const acknowledged = () =>
							new Set(
								attempts()
									.filter((d) => d.ok)
									.map((d) => d.event_uuid),
							);
						await ctx
							.waitFor(
								'every event to be acknowledged',
								() => sent.every((id) => acknowledged().has(id)),
								{
									timeoutMs: 90000,
								},
							)
							.catch(() => undefined);
						const counts = await runsIn(ctx, RESTART_SINK, sent, {
							settleMs: 4000,
							timeoutMs: 30000,
						});
						const all = attempts();
						const failed = all.filter((d) => !d.ok);
						const by = (f) => failed.filter(f).length;
						const lost = [...acknowledged()].filter((id) => !counts[id]);
						H.log(
							`balancer ${name}, webhook process ${restarted + 1} restarted (stopped in ${phases.stopMs} ms, ready ${phases.startingMs} ms later, ${phases.migrationsMs} ms after it began to wait for its migrations): ${sent.length} events, ${all.length} deliveries, ${lost.length} acknowledged without a run, ${by((d) => d.status === 404)} answered 404, ${by((d) => d.status >= 500)} answered 5xx, ${by((d) => d.error)} without an answer; ${phases.callsBeforeReady} calls to the restarted process in all before it was ready (before the stop included), ${phases.callsAfterReady} after`,
						);
						// Checked once both balancers have run, so that one run shows what each does.
						checks.push(() => {
							assert.equal(
								lost.length,
								0,
								`${name}: ${lost.length} events acknowledged (2xx) without a run, lost: ${lost.slice(0, 5).join(', ')}`,
							);
							// 404: a process that was not serving its webhooks yet had the delivery (the service
							// counts it as failed, and need not send it again).
							assert.equal(
								by((d) => d.status === 404),
								0,
								`${name}: deliveries answered 404 by a process that was still starting`,
							);
							assert.ok(
								sent.every((id) => acknowledged().has(id)),
								`${name}: every event acknowledged in the end (the service's retries included)`,
							);
							assertOnce(ctx, sent, counts, `${name}: ${sent.length} events during a restart`);
							// The balancer put the process back once it was ready (else this proved nothing).
							assert.ok(
								phases.callsAfterReady > 0,
								`${name} sent the restarted process no call once it was ready`,
							);
						});
					} finally {
						await balancer.stop();
					}
				}
			} finally {
				sandbox.options.deliveryRetryDelaysMs = delays;
			}
			for (const check of checks) check();
		},
	},
];
