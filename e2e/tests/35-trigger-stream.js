'use strict';
/**
 * Platform Trigger, "Posts matching search rules" mode (filtered-stream webhooks), inside n8n:
 *   - activation adds our rules (after a dry run) and links the webhook to the stream;
 *   - a matching signed delivery runs the workflow once, with its rule tag; a repeated delivery of the
 *     same post does not run it again; a forged one gets 401; a post matching no rule is not delivered;
 *   - deactivation (through n8n's REST API) unlinks the webhook and removes exactly our rules.
 */
const F = require('../lib/fixtures');
const { deactivate } = require('../lib/rest');

const WF_ID = 'e2eTriggerStrm01';
const SINK = 'trigger-stream';
const WEBHOOK_ID = F.uuidFrom('e2e-trigger-stream-webhook');

function streamWorkflow(ctx) {
	const trigger = F.node(
		'Platform Trigger',
		F.T.trigger,
		1,
		{
			mode: 'stream',
			rules: {
				rule: [
					{ value: 'autumn sale', tag: 'sale' },
					{ value: 'launch -draft', tag: 'launch' },
				],
			},
			postFields: 'created_at,author_id',
			expansions: 'author_id',
			userFields: 'username',
			options: {},
		},
		[0, 0],
		{ webhookId: WEBHOOK_ID, credentials: F.credRef(F.CRED.bearer) },
	);
	return F.workflow(
		WF_ID,
		'e2e platform trigger stream',
		[trigger, F.sinkNode('Record Run', ctx.sandboxUrl, SINK, [300, 0])],
		F.chain(['Platform Trigger', 'Record Run']),
	);
}

function ourWebhook(ctx) {
	return [...ctx.sandbox.db.webhooks.values()].find((w) =>
		w.url.includes(`/webhook/${WEBHOOK_ID}`),
	);
}

module.exports = [
	{
		name: 'trigger stream mode: rules (dry run first) and link at activation, one run per matching post with its tag, none for forged or non-matching',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		workflows: (ctx) => [streamWorkflow(ctx)],
		publish: () => [WF_ID],
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			ctx.clearSink(SINK);
			const hook = await ctx.waitFor(
				'the trigger to register its webhook, add its rules and link the stream',
				() => {
					const w = ourWebhook(ctx);
					return w && sandbox.db.streamLinks.has(w.id) && sandbox.db.streamRules.size >= 2 && w;
				},
				{ timeoutMs: 60000 },
			);
			const ours = [...sandbox.db.streamRules.values()];
			assert.deepEqual(ours.map((r) => [r.value, r.tag]).sort(), [
				['autumn sale', 'sale'],
				['launch -draft', 'launch'],
			]);
			const link = sandbox.db.streamLinks.get(hook.id);
			assert.ok(
				link.fields.includes('tweet.fields') && link.fields.includes('expansions'),
				`the link carries the chosen fields: ${JSON.stringify(link)}`,
			);
			const dryRuns = ctx
				.records(0, '/2/tweets/search/stream/rules')
				.filter((r) => r.method === 'POST' && r.query.dry_run === 'true');
			assert.ok(dryRuns.length >= 1, 'the rules were validated with a dry run first');
			// Someone else's rule, added after activation: deactivation must leave it.
			sandbox.db.streamRules.set('9990001', { id: '9990001', value: 'not ours' });

			const match = await sandbox.emitStreamPost({ text: 'Our big Autumn Sale starts now' });
			assert.equal(match.deliveries.length, 1);
			assert.equal(match.deliveries[0].status, 200);
			const forged = await sandbox.emitStreamPost({ text: 'autumn sale (forged)', forge: true });
			assert.equal(forged.deliveries[0].status, 401, 'a forged delivery must get 401');
			const none = await sandbox.emitStreamPost({ text: 'nothing to see here' });
			assert.equal(none.deliveries.length, 0, 'a post matching no rule is not delivered');

			await ctx.waitFor('a run for the matching post', () => ctx.sink(SINK).length >= 1, {
				timeoutMs: 60000,
			});
			await ctx.sleep(3000);
			const runs = ctx.sink(SINK).map((i) => i.body);
			assert.equal(
				runs.length,
				1,
				`one run for the matching post, got ${runs.length}: ${JSON.stringify(runs).slice(0, 500)}`,
			);
			assert.equal(runs[0].post.id, match.post.id);
			assert.deepEqual(runs[0].tags, ['sale']);
			assert.equal(runs[0].matching_rules[0].tag, 'sale');
			assert.ok(
				runs[0].includes.users && runs[0].includes.users.length === 1,
				'includes carry the author',
			);
		},
	},
	{
		name: 'trigger stream mode: the same post delivered twice runs the workflow once',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			ctx.clearSink(SINK);
			const match = await sandbox.emitStreamPost({ text: 'autumn sale, second wave', times: 2 });
			assert.equal(match.deliveries.length, 2, 'delivered twice');
			await ctx.waitFor('a run for the post', () => ctx.sink(SINK).length >= 1, {
				timeoutMs: 60000,
			});
			await ctx.sleep(3000);
			assert.equal(ctx.sink(SINK).length, 1, `runs: ${ctx.sink(SINK).length}`);
		},
	},
	{
		name: 'trigger stream mode: deactivation unlinks the webhook and removes exactly our rules',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const hook = ourWebhook(ctx);
			assert.ok(hook, 'our webhook is registered');
			await deactivate(ctx, WF_ID);
			await ctx.waitFor(
				'deactivation to remove our rules and the link',
				() => !sandbox.db.streamLinks.has(hook.id) && sandbox.db.streamRules.size === 1,
				{ timeoutMs: 60000 },
			);
			assert.deepEqual(
				[...sandbox.db.streamRules.keys()],
				['9990001'],
				'only our rules were removed',
			);
		},
	},
];
