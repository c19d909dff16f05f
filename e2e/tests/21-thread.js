'use strict';
/**
 * Post › Create Thread inside n8n: a thread of five parts from a list an expression gives (as an AI
 * agent's output would), each a reply to the one before; then a thread whose third part the service
 * refuses (an injected 503 on the third create), whose item (the node's On Error: Continue) names
 * parts 1-2 posted, 3 failed, 4-5 not attempted; then the same parts again with Continue After
 * Post ID, which posts parts 3-5 only, never a part twice.
 */
const { T, CRED, node, chain, workflow, webhookStart, credRef } = require('../lib/fixtures');

const WF = 'e2eThread0000001';
const PATH = 'e2e-thread';

const workflows = () => [
	workflow(
		WF,
		'e2e thread: create, fail at part 3, continue',
		[
			webhookStart(PATH),
			node(
				'Create Thread',
				T.posts,
				1.1,
				{
					authentication: 'platformOAuth2Api',
					resource: 'post',
					operation: 'createThread',
					partsFrom: 'list',
					parts: '={{ $json.body.parts }}',
					options: { continueAfterPostId: '={{ $json.body.continueAfter || "" }}' },
				},
				[250, 0],
				{ credentials: credRef(CRED.oauth2), onError: 'continueRegularOutput' },
			),
		],
		chain(['Start', 'Create Thread']),
		{ active: true },
	),
];

module.exports = [
	{
		name: 'posts: Create Thread posts a thread, stops at a failing part and continues it',
		needs: ['platformPosts:post.createThread'],
		modes: ['regular'],
		workflows,
		publish: () => [WF],
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const tag = Date.now();
			const parts = (name) => [1, 2, 3, 4, 5].map((n) => `${name} ${tag}: part ${n} of 5`);
			const creates = (since) =>
				ctx
					.records(since, '/2/tweets')
					.filter((r) => r.method === 'POST' && r.path === '/2/tweets');

			// 1. A whole thread: five creates, each part replying to the one before.
			let since = ctx.seq();
			const first = parts('Whole thread');
			let items = await ctx.call(PATH, { parts: first });
			assert.equal(items.length, 1, JSON.stringify(items).slice(0, 500));
			assert.equal(items[0].complete, true, JSON.stringify(items[0]).slice(0, 800));
			let sent = creates(since);
			assert.deepEqual(
				sent.map((r) => r.status),
				[201, 201, 201, 201, 201],
			);
			assert.deepEqual(
				sent.map((r) => r.body.text),
				first,
			);
			const ids = sent.map((r) => r.response.data.id);
			assert.deepEqual(items[0].part_ids, ids);
			for (let i = 1; i < 5; i++)
				assert.equal(sent[i].body.reply.in_reply_to_tweet_id, ids[i - 1], `part ${i + 1} replies`);
			assert.equal(sent[0].body.reply, undefined, 'the first part replies to nothing');

			// 2. The third create fails: parts 1-2 posted, 3 failed, 4-5 not attempted.
			since = ctx.seq();
			const second = parts('Broken thread');
			sandbox.faults.rules.push({
				status: 503,
				remaining: 1,
				skip: 2,
				method: 'POST',
				path: '^/2/tweets$',
			});
			items = await ctx.call(PATH, { parts: second });
			const failed = items[0];
			assert.equal(failed.complete, false, JSON.stringify(failed).slice(0, 800));
			assert.equal(failed.failed_part, 3);
			assert.deepEqual(failed.not_attempted_parts, [4, 5]);
			sent = creates(since);
			assert.deepEqual(
				sent.map((r) => r.status),
				[201, 201, 503],
				'three creates, the third not retried',
			);
			const posted = sent.slice(0, 2).map((r) => r.response.data.id);
			assert.deepEqual(failed.part_ids, posted);
			assert.equal(failed.continue_after_post_id, posted[1]);
			assert.match(
				failed.description,
				/Posted: parts 1-2 .*Failed: part 3\. Not attempted: parts 4-5\./,
			);

			// 3. The same parts, continued after part 2: parts 3-5 only, the first replying to part 2.
			since = ctx.seq();
			items = await ctx.call(PATH, { parts: second, continueAfter: failed.continue_after_post_id });
			assert.equal(items[0].complete, true, JSON.stringify(items[0]).slice(0, 800));
			sent = creates(since);
			assert.deepEqual(
				sent.map((r) => r.body.text),
				second.slice(2),
			);
			assert.deepEqual(
				sent.map((r) => r.status),
				[201, 201, 201],
			);
			assert.equal(sent[0].body.reply.in_reply_to_tweet_id, posted[1]);
			assert.equal(items[0].part_ids.length, 5);
			assert.deepEqual(items[0].part_ids.slice(0, 2), posted);
			for (const text of second)
				assert.equal(
					[...sandbox.db.tweets.values()].filter((t) => t.text === text).length,
					1,
					`"${text}" is posted once`,
				);
		},
	},
];
