'use strict';
/**
 * One downstream workflow behind each of the three triggers, for the event they share (a new post of a
 * user, `post.create`): the Platform Trigger (Activity Events, its default version), the Activity
 * Stream Trigger and the Poll Trigger (New Posts by a User, its default version) each call the same
 * sub-workflow (Execute Workflow), which maps the fields a builder maps (`event_type`, `filter.user_id`,
 * `payload.id`, `payload.text`, `payload.author_id`) with expressions. One post of the user runs all
 * three; each gets the same mapped item back, and no execution fails: a workflow moves between the
 * triggers for this event without remapping.
 */
const F = require('../lib/fixtures');
const { activate, deactivate, session } = require('../lib/rest');

/** A user no other test watches: only these triggers' subscriptions match its posts. */
const USER = '1000000039';
const SUB_ID = 'e2eDownstream001';
const CALLERS = [
	{ id: 'e2eDownstreamWh1', sink: 'downstream-webhook', what: 'Platform Trigger' },
	{ id: 'e2eDownstreamSt1', sink: 'downstream-stream', what: 'Activity Stream Trigger' },
	{ id: 'e2eDownstreamPl1', sink: 'downstream-poll', what: 'Poll Trigger' },
];

/** The downstream workflow: what a builder maps from a trigger's item, with expressions. */
function downstream() {
	const field = (name, value) => ({ id: name, name, value, type: 'string' });
	return F.workflow(
		SUB_ID,
		'e2e downstream of every trigger',
		[
			F.node('When Called', 'n8n-nodes-base.executeWorkflowTrigger', 1, {}, [0, 0]),
			F.node(
				'Map Fields',
				'n8n-nodes-base.set',
				3.4,
				{
					assignments: {
						assignments: [
							field('event', '={{ $json.event_type }}'),
							field('user', '={{ $json.filter.user_id }}'),
							field('post_id', '={{ $json.payload.id }}'),
							field('text', '={{ $json.payload.text }}'),
							field('author', '={{ $json.payload.author_id }}'),
						],
					},
					options: {},
				},
				[250, 0],
			),
		],
		F.chain(['When Called', 'Map Fields']),
	);
}

function caller(ctx, { id, sink, what }, trigger) {
	return F.workflow(
		id,
		`e2e downstream behind the ${what}`,
		[
			trigger,
			F.node(
				'Run Downstream',
				'n8n-nodes-base.executeWorkflow',
				1,
				{ source: 'database', workflowId: SUB_ID, options: {} },
				[250, 0],
			),
			F.sinkNode('Record Run', ctx.sandboxUrl, sink, [500, 0]),
		],
		F.chain([trigger.name, 'Run Downstream', 'Record Run']),
	);
}

module.exports = [
	{
		name: 'downstream: one sub-workflow behind the Platform Trigger, the Activity Stream Trigger and the Poll Trigger maps a new post of the user the same way for each, none fails',
		needs: ['platformTriggerPosts', 'platformPostTriggers', 'platformPostsTrigger'],
		modes: ['regular'],
		workflows: (ctx) => {
			ctx.sandbox.addUser({ id: USER, username: 'downstream_user', name: 'Downstream' });
			return [
				downstream(),
				caller(
					ctx,
					CALLERS[0],
					F.triggerNode('Platform Trigger', [0, 0], {
						userId: USER,
						description: ctx.describe('platformTriggerPosts'),
						typeVersion: 3,
						webhookId: F.uuidFrom('e2e-downstream-webhook'),
					}),
				),
				caller(
					ctx,
					CALLERS[1],
					F.streamTriggerNode({ events: ['post.create'], user: USER, options: {} }),
				),
				caller(
					ctx,
					CALLERS[2],
					F.pollTriggerNode({
						event: 'userPosts',
						user: { __rl: true, mode: 'id', value: USER },
					}),
				),
			];
		},
		publish: () => [SUB_ID],
		timeoutMs: 240000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			for (const c of CALLERS) {
				const activated = await activate(ctx, c.id);
				assert.ok(
					activated.ok,
					`activating ${c.id}: ${activated.status} ${activated.text.slice(0, 300)}`,
				);
			}
			// The Poll Trigger's first poll records where the user's posts stand; the stream is open.
			await ctx.waitFor(
				'the Poll Trigger’s first poll',
				() => ctx.records(0, `/2/users/${USER}/tweets`).some((r) => r.status === 200),
				{ timeoutMs: 60000 },
			);
			await ctx.waitFor(
				'the Activity Stream Trigger’s stream',
				() => [...sandbox.activityStream.connections].length > 0,
				{ timeoutMs: 60000 },
			);
			await ctx.sleep(2000);

			// The user posts: the service sends it to the webhook and the stream, and lists it.
			const text = 'a new post every trigger sees';
			const post = sandbox.publishPost({ text, author_id: USER });
			await sandbox.emit({ event_type: 'post.create', user_id: USER, post_id: post.id, text });
			const expected = { event: 'post.create', user: USER, post_id: post.id, text, author: USER };
			await ctx.waitFor(
				'a run behind each trigger',
				() => CALLERS.every((c) => ctx.sink(c.sink).length >= 1),
				{ timeoutMs: 90000, intervalMs: 1000 },
			);
			await ctx.sleep(12000); // a second poll: nothing runs twice
			for (const c of CALLERS) {
				const runs = ctx.sink(c.sink).map((i) => i.body);
				assert.equal(runs.length, 1, `behind the ${c.what}: one run (${JSON.stringify(runs)})`);
				const mapped = Object.fromEntries(Object.keys(expected).map((k) => [k, runs[0][k]]));
				assert.deepEqual(
					mapped,
					expected,
					`behind the ${c.what}: the downstream workflow's mapping`,
				);
			}
			const failed = [];
			const api = await session(ctx.inst.port);
			for (const id of [SUB_ID, ...CALLERS.map((c) => c.id)]) {
				const list = await api.executions(id);
				failed.push(...list.filter((e) => e.status !== 'success').map((e) => `${id}: ${e.status}`));
			}
			assert.deepEqual(failed, [], 'no execution failed');
			for (const c of CALLERS) await deactivate(ctx, c.id);
		},
	},
];
