'use strict';
/**
 * The recipe examples that start with the Poll Trigger, inside n8n as `npm start` imports them
 * (exampleOverrides), published: examples/reply-to-mentions.json replies to a mention made after
 * publishing, examples/search-to-data-table.json saves a match into an n8n data table. Each polls every
 * 10 s here instead of its shipped interval (the only change besides npm start's), and is unpublished
 * at the end so that it adds no requests to the tests after it.
 */
const F = require('../lib/fixtures');
const { activate, deactivate } = require('../lib/rest');

const MENTIONS_ID = 'exReplyMention01';
const TABLE_ID = 'exSearchTable001';
const TABLE_SINK = 'recipe-data-table';
const TABLE_QUERY = 'recipe table match';

/** The example as npm start imports it, polling every 10 s. */
function polling(ctx, id, triggerName) {
	const wf = F.sandboxExample(ctx.sandboxUrl, id);
	if (!wf) return undefined;
	wf.nodes.find((n) => n.name === triggerName).parameters.pollTimes = F.EVERY_10_S;
	return wf;
}

module.exports = [
	{
		name: 'examples: reply to mentions answers a mention made after publishing, once',
		needs: ['platformPostsTrigger', 'platformPosts:post.create'],
		modes: ['regular'],
		workflows: (ctx) => [polling(ctx, MENTIONS_ID, 'New Mention')].filter(Boolean),
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const user = sandbox.keys.userId;
			const mentionPolls = (since = 0) =>
				ctx
					.records(since, `/2/users/${user}/mentions`)
					.filter((r) => r.method === 'GET' && r.status === 200);
			const since = ctx.seq();
			const published = await activate(ctx, MENTIONS_ID);
			assert.ok(published.ok, `publishing: ${published.status} ${published.text.slice(0, 300)}`);
			try {
				await ctx.waitFor(
					'the first poll (records the position)',
					() => mentionPolls(since).length,
					{
						timeoutMs: 60000,
					},
				);
				const fan = sandbox.addUser({ username: 'recipe_fan' });
				const mention = sandbox.publishPost({
					text: `@${sandbox.keys.username} your recipe works`,
					author_id: fan.id,
				});
				const replies = () =>
					[...sandbox.db.tweets.values()].filter(
						(t) => t.in_reply_to_user_id === fan.id && t.conversation_id === mention.id,
					);
				const [reply] = await ctx.waitFor('the reply', () => replies().length && replies(), {
					timeoutMs: 60000,
					intervalMs: 1000,
				});
				assert.equal(reply.text, 'Thanks for the mention, @recipe_fan! We read every one.');
				assert.equal(reply.author_id, user);
				// One more poll after the reply: the mention is not answered twice.
				const after = ctx.seq();
				await ctx.waitFor('one more poll', () => mentionPolls(after).length >= 1, {
					timeoutMs: 40000,
					intervalMs: 1000,
				});
				assert.equal(replies().length, 1, 'one reply to the mention');
				// This workflow's requests (other tests' triggers may still be tearing down meanwhile).
				const own = ctx
					.records(since)
					.filter(
						(r) =>
							r.path === '/2/users/me' ||
							r.path.endsWith('/mentions') ||
							(r.method === 'POST' && r.path === '/2/tweets'),
					);
				assert.ok(own.length >= 3, `the recipe's own requests: ${own.length}`);
				for (const r of own)
					assert.ok(
						r.auth && r.auth.valid && r.auth.kind === 'oauth2',
						`request #${r.seq} ${r.method} ${r.path}: ${JSON.stringify(r.auth)}, expected a valid oauth2 token`,
					);
			} finally {
				await deactivate(ctx, MENTIONS_ID);
			}
		},
	},
	{
		name: 'examples: search matches into a data table saves a match made after publishing as a row',
		needs: ['platformPostsTrigger'],
		modes: ['regular'],
		workflows: (ctx) => {
			const wf = polling(ctx, TABLE_ID, 'New Search Match');
			if (!wf) return [];
			wf.nodes.find((n) => n.name === 'New Search Match').parameters.query = TABLE_QUERY;
			// What the data table node returns for each inserted row goes to a sink the test reads.
			wf.nodes.push(F.sinkNode('Record Row', ctx.sandboxUrl, TABLE_SINK, [520, 160]));
			wf.connections['Save Match'] = {
				main: [[{ node: 'Record Row', type: 'main', index: 0 }]],
			};
			return [wf];
		},
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const searches = (since = 0) =>
				ctx
					.records(since, '/2/tweets/search/recent')
					.filter((r) => r.query.query === TABLE_QUERY && r.status === 200);
			ctx.clearSink(TABLE_SINK);
			const since = ctx.seq();
			const published = await activate(ctx, TABLE_ID);
			assert.ok(published.ok, `publishing: ${published.status} ${published.text.slice(0, 300)}`);
			try {
				await ctx.waitFor('the first poll (records the position)', () => searches(since).length, {
					timeoutMs: 60000,
				});
				const a = sandbox.publishPost({ text: `first ${TABLE_QUERY}` });
				const b = sandbox.publishPost({ text: `second ${TABLE_QUERY}` });
				const rows = () => ctx.sink(TABLE_SINK).map((i) => i.body);
				await ctx.waitFor('two rows', () => rows().length >= 2, {
					timeoutMs: 60000,
					intervalMs: 1000,
				});
				const after = ctx.seq();
				await ctx.waitFor('one more poll', () => searches(after).length >= 1, {
					timeoutMs: 40000,
					intervalMs: 1000,
				});
				const saved = rows();
				assert.deepEqual(
					saved.map((r) => r.post_id).sort(),
					[a.id, b.id].sort(),
					JSON.stringify(saved),
				);
				for (const r of saved) {
					assert.ok(r.id !== undefined, `the data table gave the row an id: ${JSON.stringify(r)}`);
					assert.equal(r.query, TABLE_QUERY);
					assert.equal(r.author, sandbox.keys.username);
				}
			} finally {
				await deactivate(ctx, TABLE_ID);
			}
		},
	},
];
