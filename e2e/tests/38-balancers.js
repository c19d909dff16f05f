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
];
