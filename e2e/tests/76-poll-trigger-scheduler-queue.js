'use strict';
/**
 * Platform Poll Trigger in queue mode on n8n's durable poll scheduler with durable cursors (the suite's
 * queue-mode n8n runs with the four settings on: e2e/run.js): PostgreSQL 17, Redis, 2 workers, 2 webhook
 * processes behind nginx, main. Posts published between publishing the workflow and its first scheduled
 * poll each run once, the post published before publishing never runs, and the polls
 * after them repeat nothing. The kill -9 case runs in regular mode (75-poll-trigger-scheduler.js).
 */
const F = require('../lib/fixtures');
const { session } = require('../lib/rest');

const WATCHED = '1500000000000000760';
const TIMELINE = `/2/users/${WATCHED}/tweets`;
const WF = 'e2ePollSchedQueue1';
const SINK = 'poll-scheduler-queue';

module.exports = [
	{
		name: "poll trigger under n8n's durable poll scheduler in queue mode: posts published before the first scheduled poll run once, nothing old, nothing repeated",
		needs: ['platformPostsTrigger'],
		modes: ['queue'],
		workflows: (ctx) => {
			ctx.sandbox.addUser({ id: WATCHED, username: 'sched_queue' });
			return [
				F.workflow(
					WF,
					'e2e poll scheduler queue',
					[
						F.pollTriggerNode({
							event: 'userPosts',
							user: { __rl: true, mode: 'id', value: WATCHED },
							pollTimes: { item: [{ mode: 'everyMinute' }] },
						}),
						F.sinkNode('Record Run', ctx.sandboxUrl, SINK, [300, 0]),
					],
					F.chain(['Platform Poll Trigger', 'Record Run']),
				),
			];
		},
		timeoutMs: 300000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			const reads = (since) =>
				ctx.records(since, TIMELINE).filter((r) => r.path === TIMELINE && r.status === 200);
			const post = (text) => sandbox.publishPost({ text, author_id: WATCHED }).id;
			const api = await session(inst.port);
			const old = post('published before publishing');
			const seq = sandbox.seq;
			const r = await api.toggle(WF, 'activate');
			assert.ok(r.ok, `publishing: ${r.status} ${r.text.slice(0, 300)}`);
			await ctx.waitFor('the publishing poll', () => reads(seq).length > 0, {
				timeoutMs: 60000,
				intervalMs: 200,
			});
			const published = sandbox.seq;
			const fresh = [post('before the first tick 0'), post('before the first tick 1')];
			await ctx.waitFor('the first scheduled poll', () => reads(published).length > 0, {
				timeoutMs: 90000,
				intervalMs: 500,
			});
			await ctx.waitFor(
				'the runs of the posts published before the first scheduled poll',
				() => fresh.every((id) => ctx.runCounts(SINK)[id]),
				{ timeoutMs: 90000, intervalMs: 1000 },
			);
			// One more scheduled poll: nothing new, nothing repeated.
			const after = sandbox.seq;
			await ctx.waitFor('one more scheduled poll', () => reads(after).length > 0, {
				timeoutMs: 90000,
				intervalMs: 1000,
			});
			await ctx.sleep(3000);
			await api.toggle(WF, 'deactivate');
			const counts = ctx.runCounts(SINK);
			for (const id of fresh) assert.equal(counts[id], 1, `post ${id}: ${JSON.stringify(counts)}`);
			assert.equal(counts[old], undefined, 'the post published before publishing did not run');
			assert.equal(
				Object.keys(counts).length,
				fresh.length,
				`only the new posts ran: ${JSON.stringify(counts)}`,
			);
		},
	},
];
