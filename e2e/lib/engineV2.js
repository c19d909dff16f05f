'use strict';
/**
 * n8n's Engine 2.0 in the e2e suite (e2e/tests/74-engine-v2.js with its module off, and
 * e2e/tests/75-poll-trigger-scheduler.js's own n8n with it on): three workflows, one per trigger, set to
 * Engine 2.0, and the check that each trigger refuses to be published there with what to change.
 */
const F = require('./fixtures');
const { session } = require('./rest');

const USER = '1000000074';
const SINK = 'engine-v2';
const IDS = { webhook: 'e2eEngineV2Hook1', stream: 'e2eEngineV2Strm1', poll: 'e2eEngineV2Poll1' };
const REFUSAL = /cannot run in a workflow set to Engine 2\.0/;

function addUser(ctx) {
	if (!ctx.sandbox.db.users.has(USER))
		ctx.sandbox.addUser({ id: USER, username: 'engine_v2_user' });
}

function engineV2(wf) {
	wf.settings = Object.assign({}, wf.settings, { engineType: 'v2' });
	return wf;
}

function workflows(ctx) {
	const sink = () => F.sinkNode('Record Run', ctx.sandboxUrl, SINK, [300, 0]);
	const of = (id, name, trigger) =>
		engineV2(F.workflow(id, name, [trigger, sink()], F.chain([trigger.name, 'Record Run'])));
	return [
		of(
			IDS.webhook,
			'e2e engine v2 webhook',
			F.triggerNode('Platform Trigger', [0, 0], {
				userId: USER,
				description: ctx.describe('platformTriggerPosts'),
				typeVersion: 3,
				webhookId: F.uuidFrom('e2e-engine-v2-webhook'),
			}),
		),
		of(
			IDS.stream,
			'e2e engine v2 stream',
			F.streamTriggerNode({ events: ['post.create'], user: USER, options: {} }),
		),
		of(
			IDS.poll,
			'e2e engine v2 poll',
			F.pollTriggerNode({ event: 'userPosts', user: { __rl: true, mode: 'id', value: USER } }),
		),
	];
}

/** Publishes each workflow as the editor does; returns the error n8n shows for each. */
async function publishAll(ctx, port) {
	const api = await session(port);
	// All three published first, then their errors awaited together: n8n 2.40 publishes in the
	// background (the toggle answers 200 and the error appears on the workflow's publication status;
	// without the publication service the toggle itself answers 400).
	const toggled = {};
	for (const [kind, id] of Object.entries(IDS)) toggled[kind] = await api.toggle(id, 'activate');
	const errors = {};
	await Promise.all(
		Object.entries(IDS).map(async ([kind, id]) => {
			const r = toggled[kind];
			errors[kind] = r.ok
				? await ctx.waitFor(`the publication error of the ${kind} workflow`, () =>
						api.activationError(id),
					)
				: r.text;
		}),
	);
	return { api, errors };
}

async function assertRefused(ctx, port, label) {
	const { assert, sandbox } = ctx;
	const { api, errors } = await publishAll(ctx, port);
	for (const [kind, error] of Object.entries(errors)) {
		assert.match(String(error), REFUSAL, `${label}: the ${kind} trigger's refusal`);
		assert.match(String(error), /engineType/, `${label}: the ${kind} refusal names the setting`);
	}
	// Nothing registered at the service, nothing ran.
	const hooks = [...sandbox.db.webhooks.values()].filter((w) =>
		String(w.url).includes(F.uuidFrom('e2e-engine-v2-webhook')),
	);
	assert.deepEqual(hooks, [], `${label}: no webhook registered`);
	const subs = [...sandbox.db.subscriptions.values()].filter((s) =>
		String(s.tag || '').startsWith(`n8n:${IDS.stream}:`),
	);
	assert.deepEqual(subs, [], `${label}: no activity subscription`);
	await ctx.sandbox.emit({ event_type: 'post.create', user_id: USER, text: 'engine v2', count: 1 });
	await ctx.sleep(3000);
	assert.deepEqual(ctx.runCounts(SINK), {}, `${label}: nothing ran`);
	for (const id of Object.values(IDS)) await api.toggle(id, 'deactivate');
}

/**
 * The module's settings for an instance on PostgreSQL, after its setup (n8n's CLI commands would start
 * the module's engine too): its data plane in a database of its own beside n8n's.
 */
async function enableModule(inst, H) {
	inst.pg.psql('create database engine', 'postgres');
	Object.assign(inst.env, {
		N8N_ENABLED_MODULES: 'engine-v2',
		N8N_ENGINE_DATABASE_URL: `postgres://n8n@127.0.0.1:${inst.pgPort}/engine`,
		N8N_ENGINE_HOST: '127.0.0.1',
		N8N_ENGINE_PORT: String(await H.freePort()),
		N8N_ENGINE_CONTROL_PLANE_PORT: String(await H.freePort()),
	});
}

module.exports = { addUser, workflows, assertRefused, enableModule };
