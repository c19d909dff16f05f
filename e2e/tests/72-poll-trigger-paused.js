'use strict';
/**
 * Platform Poll Trigger 1.2 in real n8n: a pause of the polls that a builder would notice is shown
 * where the builder looks, as one failed execution of the workflow naming the reset time, not only as
 * a server log line. The sandbox gives the watched followers read one request per 15-minute window;
 * the activation's poll spends it, and the polls after it (every 10 s) are skipped without a request.
 */
const F = require('../lib/fixtures');
const { activate, deactivate, session } = require('../lib/rest');

const WATCHED = '1500000000000000700';
const FOLLOWER = '1500000000000000701';
const WF = 'e2ePollPausedFollw';
const SINK = 'poll-paused';

module.exports = [
	{
		name: 'poll trigger: a pause of the polls (the rate-limit window spent for 15 minutes) shows once as a failed execution naming the reset time',
		needs: ['platformPostsTrigger'],
		modes: ['regular'],
		workflows: (ctx) => {
			ctx.sandbox.addUser({ id: WATCHED, username: 'paused_watched' });
			ctx.sandbox.addUser({ id: FOLLOWER, username: 'paused_follower' });
			ctx.sandbox.setRelation({ kind: 'follow', user_id: FOLLOWER, target_id: WATCHED }, true);
			return [
				F.workflow(
					WF,
					'e2e poll paused',
					[
						F.pollTriggerNode({
							event: 'followers',
							user: { __rl: true, mode: 'id', value: WATCHED },
						}),
						F.sinkNode('Record Run', ctx.sandboxUrl, SINK, [300, 0]),
					],
					F.chain(['Platform Poll Trigger', 'Record Run']),
				),
			];
		},
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			const path = `/2/users/${WATCHED}/followers`;
			const api = await session(inst.port);
			const failed = async () =>
				(await api.executions(WF)).filter((e) => e.status === 'error' || e.status === 'crashed');
			sandbox.options.rateLimits = [{ method: 'GET', path: `^${path}$`, limit: 1, windowS: 900 }];
			sandbox.rateWindows.clear();
			try {
				const activated = await activate(ctx, WF);
				assert.ok(activated.ok, `publishing: ${activated.status} ${activated.text}`);
				const [first] = await ctx.waitFor(
					'the failed execution that reports the pause',
					async () => {
						const list = await failed();
						return list.length ? list : undefined;
					},
					{
						timeoutMs: 45000,
						intervalMs: 1000,
					},
				);
				const detail = JSON.stringify(await api.call('GET', `/rest/executions/${first.id}`));
				assert.match(
					detail,
					/Polls paused until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: the service's rate-limit window for \\*"New Followers of a User\\*" has no request left/,
				);
				assert.match(detail, /Nothing is lost/);
				// Two more polls (10 s apart) skip quietly: still one report, one request, no run.
				await ctx.sleep(21000);
				assert.equal((await failed()).length, 1, 'the pause is reported once');
				const reads = ctx.records(0, path).filter((r) => r.method === 'GET');
				assert.deepEqual(
					reads.map((r) => r.status),
					[200],
					'the activation poll spent the window; the polls after it sent nothing',
				);
				assert.deepEqual(ctx.runCounts(SINK), {}, 'nothing ran');
			} finally {
				sandbox.options.rateLimits = [];
				sandbox.rateWindows.clear();
				await deactivate(ctx, WF).catch(() => {});
			}
		},
	},
];
