'use strict';
/**
 * Platform Poll Trigger, "New posts matching a search query", active in real n8n, polling every 10
 * seconds (six custom cron Poll Times a minute):
 *   - a post published before activation never runs the workflow (the first poll only records the position);
 *   - each post published after activation runs it once, none twice, a post not matching never;
 *   - n8n stopped, a post published while it is down, n8n started: that post runs once (the position was
 *     kept in the workflow's static data), and the posts from before the restart do not run again.
 * Both run in regular mode (n8n's in-memory poll timers) and in queue mode, whose n8n runs n8n's durable
 * poll scheduler with durable cursors (e2e/run.js): there the position lives in n8n's poller_state row
 * and is committed with each execution, and the member's post and the new member are added right after
 * the poll at publishing. In queue mode the restart is where several polls of one node run at once: each
 * of the six Poll Times is a scheduler job of its own, and at start-up n8n fires the occurrence each job
 * missed while it was down (within N8N_SCHEDULER_MISFIRE_GRACE, 60 s) at the same moment, each poll on
 * the same poller_state cursor. The post published while n8n was down ran 5 times there before the
 * Poll Trigger ran one poll of a node at a time (issue 52); it must run once.
 */
const F = require('../lib/fixtures');
const { activate, deactivate } = require('../lib/rest');

const WF_ID = 'e2ePollTrigger01';
const SINK = 'poll-trigger';
const QUERY = 'pollwatch e2e';
const SEARCH = '/2/tweets/search/recent';

function pollWorkflow(ctx) {
	const trigger = F.pollTriggerNode({ event: 'search', query: QUERY }, { typeVersion: 1 });
	return F.workflow(
		WF_ID,
		'e2e platform poll trigger',
		[trigger, F.sinkNode('Record Run', ctx.sandboxUrl, SINK, [300, 0])],
		F.chain(['Platform Poll Trigger', 'Record Run']),
	);
}

function ourSearches(ctx, since) {
	return ctx.records(since, SEARCH).filter((r) => r.query.query === QUERY);
}

function runCounts(ctx) {
	const counts = {};
	for (const item of ctx.sink(SINK)) {
		const id = item.body && item.body.post && item.body.post.id;
		counts[id] = (counts[id] || 0) + 1;
	}
	return counts;
}

const searchTest = {
	name: 'poll trigger: one run per post matching the search query published after activation, none twice, across an n8n restart',
	needs: ['platformPostsTrigger'],
	modes: ['regular', 'queue'],
	workflows: (ctx) => {
		// Published before n8n starts (and so before activation): it must never run the workflow.
		ctx.pollBefore = ctx.sandbox.publishPost({ text: `${QUERY} published before activation` }).id;
		return [pollWorkflow(ctx)];
	},
	timeoutMs: 300000,
	async run(ctx) {
		const { assert, sandbox, inst } = ctx;
		// Each mode's n8n sees only its own requests and runs (the sandbox serves both modes in turn).
		const seq0 = sandbox.seq;
		ctx.clearSink(SINK);
		// Activated here, not at start-up: a poll every minute would add requests to every other test.
		const activated = await activate(ctx, WF_ID);
		assert.ok(
			activated.ok,
			`activating the poll trigger: ${activated.status} ${activated.text.slice(0, 300)}`,
		);
		// n8n polls once when it activates the workflow: that poll records the position.
		await ctx.waitFor(
			'the activation poll',
			() => ourSearches(ctx, seq0).some((r) => r.status === 200),
			{ timeoutMs: 60000 },
		);
		const first = ourSearches(ctx, seq0)[0];
		assert.equal(first.auth.kind, 'app', 'recent search with the app-only bearer token');
		assert.equal(first.query.since_id, undefined, 'the first poll has no position yet');
		assert.equal(first.query.max_results, '10');

		const a = sandbox.publishPost({ text: `first ${QUERY} post` }).id;
		const b = sandbox.publishPost({ text: `second ${QUERY} post` }).id;
		sandbox.publishPost({ text: 'a post about something else' });
		await ctx.waitFor(
			'runs for the two posts published after activation',
			() => runCounts(ctx)[a] && runCounts(ctx)[b],
			{ timeoutMs: 60000, intervalMs: 1000 },
		);
		const afterFirstRun = ourSearches(ctx, seq0).pop();
		assert.ok(
			afterFirstRun.query.since_id,
			`later polls send since_id: ${JSON.stringify(afterFirstRun.query)}`,
		);

		await inst.stopN8n();
		const c = sandbox.publishPost({ text: `${QUERY} published while n8n was down` }).id;
		await inst.start();
		await ctx.waitFor('a run for the post published while n8n was down', () => runCounts(ctx)[c], {
			timeoutMs: 60000,
			intervalMs: 1000,
		});
		const d = sandbox.publishPost({ text: `${QUERY} published after the restart` }).id;
		await ctx.waitFor('a run for the post published after the restart', () => runCounts(ctx)[d], {
			timeoutMs: 60000,
			intervalMs: 1000,
		});
		// One more poll after the last run: nothing new, nothing repeated.
		const seq = sandbox.seq;
		await ctx.waitFor('one more poll', () => ourSearches(ctx, seq).some((r) => r.status === 200), {
			timeoutMs: 30000,
			intervalMs: 1000,
		});
		await ctx.sleep(3000);
		const counts = runCounts(ctx);
		for (const id of [a, b, c, d])
			assert.equal(
				counts[id],
				1,
				`post ${id} ran ${counts[id] || 0} times (runs: ${JSON.stringify(counts)})`,
			);
		assert.equal(
			counts[ctx.pollBefore],
			undefined,
			'the post published before activation did not run',
		);
		assert.equal(
			Object.keys(counts).length,
			4,
			`only the four matching posts ran: ${JSON.stringify(counts)}`,
		);
		const item = ctx.sink(SINK).find((i) => i.body.post.id === a).body;
		assert.equal(item.event_type, 'post.match');
		assert.equal(item.query, QUERY);
		assert.ok(
			item.includes.users && item.includes.users[0].id === item.post.author_id,
			`the author is in includes: ${JSON.stringify(item).slice(0, 400)}`,
		);
		await deactivate(ctx, WF_ID);
	},
};

module.exports = [
	searchTest,
	{
		name: 'poll trigger: a list watched for new posts and new members (picked by its URL), each new one runs once',
		needs: ['platformPostsTrigger'],
		modes: ['regular', 'queue'],
		workflows: (ctx) => {
			const list = ctx.sandbox.seededListId;
			const watch = (id, name, event, sink) =>
				F.workflow(
					id,
					name,
					[
						F.pollTriggerNode(
							{ event, list: { __rl: true, mode: 'url', value: `https://x.com/i/lists/${list}` } },
							{ typeVersion: 1 },
						),
						F.sinkNode('Record Run', ctx.sandboxUrl, sink, [300, 0]),
					],
					F.chain(['Platform Poll Trigger', 'Record Run']),
				);
			return [
				watch('e2ePollListPosts1', 'e2e poll list posts', 'listPosts', 'poll-list-posts'),
				watch('e2ePollListMembr1', 'e2e poll list members', 'listMembers', 'poll-list-members'),
			];
		},
		timeoutMs: 300000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const list = sandbox.seededListId;
			const seq0 = sandbox.seq;
			for (const sink of ['poll-list-posts', 'poll-list-members']) ctx.clearSink(sink);
			const reads = (suffix) => ctx.records(seq0, `/2/lists/${list}/${suffix}`);
			for (const id of ['e2ePollListPosts1', 'e2ePollListMembr1']) {
				const activated = await activate(ctx, id);
				assert.ok(activated.ok, `activating ${id}: ${activated.status}`);
			}
			await ctx.waitFor(
				'the activation polls of both',
				() =>
					reads('tweets').some((r) => r.status === 200) &&
					reads('members').some((r) => r.status === 200),
				{ timeoutMs: 60000 },
			);
			const member = sandbox.db.lists.get(list).members[0];
			const post = sandbox.publishPost({ text: 'a list member posts', author_id: member }).id;
			sandbox.publishPost({ text: 'someone outside the list posts' });
			// A new member (the sandbox lists members newest first by when they were added, as the service).
			const newcomer =
				ctx.mode === 'queue'
					? { id: '1999999999999999998', username: 'list_newcomer_q', name: 'Newcomer (queue)' }
					: { id: '1999999999999999999', username: 'list_newcomer', name: 'Newcomer' };
			sandbox.db.users.set(newcomer.id, newcomer);
			sandbox.db.lists.get(list).members.push(newcomer.id);
			const counts = (sink) => {
				const out = {};
				for (const i of ctx.sink(sink)) out[i.body.event_id] = (out[i.body.event_id] || 0) + 1;
				return out;
			};
			const memberEvent = `list_member:${list}:${newcomer.id}`;
			await ctx.waitFor(
				'a run for the member’s post and one for the new member',
				() => counts('poll-list-posts')[post] && counts('poll-list-members')[memberEvent],
				{ timeoutMs: 60000, intervalMs: 1000 },
			);
			// One more poll of each: nothing repeated.
			const seq = sandbox.seq;
			await ctx.waitFor(
				'one more poll of each',
				() =>
					ctx.records(seq, `/2/lists/${list}/tweets`).length &&
					ctx.records(seq, `/2/lists/${list}/members`).length,
				{ timeoutMs: 30000, intervalMs: 1000 },
			);
			await ctx.sleep(2000);
			assert.deepEqual(
				counts('poll-list-posts'),
				{ [post]: 1 },
				'only the member’s post ran, once',
			);
			assert.deepEqual(
				counts('poll-list-members'),
				{ [memberEvent]: 1 },
				'the new member ran once',
			);
			const item = ctx.sink('poll-list-posts')[0].body;
			assert.equal(item.event_type, 'list.post');
			assert.deepEqual(item.filter, { list_id: list });
			for (const id of ['e2ePollListPosts1', 'e2ePollListMembr1']) await deactivate(ctx, id);
		},
	},
];
