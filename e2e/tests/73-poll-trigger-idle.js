'use strict';
/**
 * Platform Poll Trigger version 1.2, "New Followers of a User", active in real n8n and polling every
 * 10 seconds against the sandbox (followers newest first by when they followed, as the service lists
 * them):
 *   - an idle poll asks for 2 followers (max_results=2) and reads nothing further;
 *   - a new follower runs the workflow once (the read goes on past the changed top); that read took
 *     two requests, so the poll after it reads the newest 10 once (what came on top while it asked
 *     its second page would be behind it), then 2 again;
 *   - the version's documented limit: a new follower, then the two newest before it unfollowing and
 *     following again, the older first (back on top in the same order), runs nothing while the top
 *     stays so, and runs once, before the next newcomer, at the poll where that newcomer changes the top;
 *   - nothing runs twice.
 */
const F = require('../lib/fixtures');
const { activate, deactivate } = require('../lib/rest');

const WATCHED = '1500000000000000700';
const WF = 'e2ePollIdleFollow';
const SINK = 'poll-idle-followers';
/** Remembered at activation: twelve followers, oldest first. */
const REMEMBERED = Array.from({ length: 12 }, (_, i) => String(1500000000000000710n + BigInt(i)));
const NEW = {
	first: '1500000000000000601',
	hidden: '1500000000000000602',
	next: '1500000000000000603',
};

module.exports = [
	{
		name: 'poll trigger 1.2: an idle poll reads 2 followers; a new follower runs once; one hidden by the two newest re-added runs at the next change on top',
		needs: ['platformPostsTrigger'],
		modes: ['regular'],
		workflows: (ctx) => {
			const { sandbox } = ctx;
			sandbox.addUser({ id: WATCHED, username: 'idle_watched' });
			for (const id of [...REMEMBERED, ...Object.values(NEW)])
				sandbox.addUser({ id, username: `idle_${id.slice(-3)}` });
			for (const id of REMEMBERED)
				sandbox.setRelation({ kind: 'follow', user_id: id, target_id: WATCHED }, true);
			return [
				F.workflow(
					WF,
					'e2e poll followers idle read',
					[
						F.pollTriggerNode(
							{ event: 'followers', user: { __rl: true, mode: 'id', value: WATCHED } },
							{ typeVersion: 1.2 },
						),
						F.sinkNode('Record Run', ctx.sandboxUrl, SINK, [300, 0]),
					],
					F.chain(['Platform Poll Trigger', 'Record Run']),
				),
			];
		},
		timeoutMs: 240000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const path = `/2/users/${WATCHED}/followers`;
			const reads = (since) =>
				ctx.records(since, path).filter((r) => r.method === 'GET' && r.status === 200);
			const follow = (who, on = true) =>
				sandbox.setRelation({ kind: 'follow', user_id: who, target_id: WATCHED }, on);
			const runs = () => ctx.runCounts(SINK);
			const event = (id) => `follow:${id}:${WATCHED}`;
			/** Waits for `n` polls that start after now (each poll's reads share one second). */
			const polls = async (what, n) => {
				const seq = sandbox.seq;
				await ctx.waitFor(what, () => reads(seq).length >= n, {
					timeoutMs: 45000,
					intervalMs: 500,
				});
				return reads(seq);
			};
			try {
				const activated = await activate(ctx, WF);
				assert.ok(activated.ok, `activating: ${activated.status} ${activated.text}`);
				await ctx.waitFor('the activation poll', () => reads(0).length > 0, { timeoutMs: 60000 });

				const idle = await polls('two idle polls', 3);
				// The activation poll's read may fall in the window: the idle reads are those after it.
				const idleSizes = idle.slice(-2).map((r) => Number(r.query.max_results));
				assert.deepEqual(idleSizes, [2, 2], 'an idle poll asks for the newest 2 followers');

				const beforeFirst = sandbox.seq;
				follow(NEW.first);
				await ctx.waitFor('a run for the first newcomer', () => runs()[event(NEW.first)], {
					timeoutMs: 45000,
					intervalMs: 500,
				});
				// That poll read two pages; the next one reads the newest 10 in one request.
				await ctx.waitFor(
					'the poll after it, reading the newest 10',
					() =>
						reads(beforeFirst).some(
							(r) => Number(r.query.max_results) === 10 && !r.query.pagination_token,
						),
					{ timeoutMs: 45000, intervalMs: 500 },
				);

				// Between two polls (one tick of this process): a new follower, then the two newest before
				// it (the first newcomer and the newest remembered) unfollow and follow again, older first.
				follow(NEW.hidden);
				follow(REMEMBERED[11], false);
				follow(REMEMBERED[11]);
				follow(NEW.first, false);
				follow(NEW.first);
				const quiet = await polls('three polls with the top as remembered', 3);
				assert.equal(runs()[event(NEW.hidden)], undefined, 'hidden behind the two re-added');
				assert.ok(
					quiet.every((r) => Number(r.query.max_results) === 2),
					'those polls read the newest 2 only',
				);

				follow(NEW.next);
				await ctx.waitFor(
					'runs for the hidden follower and the next newcomer',
					() => runs()[event(NEW.hidden)] && runs()[event(NEW.next)],
					{ timeoutMs: 45000, intervalMs: 500 },
				);
				await polls('two more polls', 2);
				await ctx.sleep(2000);
				assert.deepEqual(
					runs(),
					Object.fromEntries(Object.values(NEW).map((id) => [event(id), 1])),
					'each new follower ran once; no re-added follower ran',
				);
				const order = ctx.sink(SINK).map((s) => s.body.payload.source.id);
				assert.ok(
					order.indexOf(NEW.hidden) < order.indexOf(NEW.next),
					'the hidden follower runs before the next newcomer (oldest first)',
				);
			} finally {
				await deactivate(ctx, WF).catch(() => {});
			}
		},
	},
];
