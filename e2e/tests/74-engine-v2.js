'use strict';
/**
 * n8n's Engine 2.0 (a workflow's `settings.engineType: 'v2'`, with the `engine-v2` module) in real n8n:
 * each of the three triggers refuses to be published in such a workflow, with what to change, instead of
 * losing events one log line at a time (nodes/shared/engine.ts says why for each, from n8n's source).
 * With the module off (the suite's own n8n) and with it on (an n8n of its own on PostgreSQL, which the
 * module needs for its data plane), the publication fails with the trigger's message, nothing is
 * registered at the service, and nothing runs.
 */
const path = require('node:path');

const H = require('../lib/host');
const F = require('../lib/fixtures');
const { Instance } = require('../lib/instance');
const { session } = require('../lib/rest');

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
			F.node(
				'Activity Stream Trigger',
				`${F.PKG}.platformPostTriggers`,
				1,
				{ events: ['post.create'], user: USER, options: {} },
				[0, 0],
				{ credentials: F.credRef(F.CRED.bearer) },
			),
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
	const errors = {};
	for (const [kind, id] of Object.entries(IDS)) {
		const r = await api.toggle(id, 'activate');
		// n8n 2.40 publishes in the background: the toggle answers 200 and the error appears on the
		// workflow's publication status; without the publication service the toggle itself answers 400.
		errors[kind] = r.ok
			? await ctx.waitFor(`the publication error of the ${kind} workflow`, () =>
					api.activationError(id),
				)
			: r.text;
	}
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

module.exports = [
	{
		name: 'engine 2.0: each trigger in a workflow set to Engine 2.0 (its module off) is refused at publishing with the setting to change; nothing registered, nothing runs',
		needs: ['platformTriggerPosts', 'platformPostTriggers', 'platformPostsTrigger'],
		modes: ['regular'],
		workflows: (ctx) => {
			addUser(ctx);
			return workflows(ctx);
		},
		timeoutMs: 120000,
		async run(ctx) {
			await assertRefused(ctx, ctx.inst.port, 'module off');
		},
	},
	{
		name: 'engine 2.0: with the engine-v2 module on (n8n on PostgreSQL), each trigger in a workflow set to Engine 2.0 is refused at publishing; nothing runs',
		needs: ['platformTriggerPosts', 'platformPostTriggers', 'platformPostsTrigger'],
		modes: ['regular'],
		timeoutMs: 360000,
		async run(ctx) {
			addUser(ctx);
			const dir = path.join(path.dirname(ctx.inst.dir), 'engine-v2');
			const inst = new Instance({
				host: ctx.inst.host,
				dir,
				tgz: ctx.inst.tgz,
				sandbox: ctx.sandbox,
				label: 'engine-v2',
				postgres: true,
			});
			try {
				await inst.setup({ workflows: workflows(ctx) });
				// The module only for the server (n8n's CLI commands above would start its engine too); its
				// data plane in a database of its own beside n8n's.
				inst.pg.psql('create database engine', 'postgres');
				Object.assign(inst.env, {
					N8N_ENABLED_MODULES: 'engine-v2',
					N8N_ENGINE_DATABASE_URL: `postgres://n8n@127.0.0.1:${inst.pgPort}/engine`,
					N8N_ENGINE_HOST: '127.0.0.1',
					N8N_ENGINE_PORT: String(await H.freePort()),
					N8N_ENGINE_CONTROL_PLANE_PORT: String(await H.freePort()),
				});
				await inst.start();
				await H.waitForLog(inst.procs.main, /Engine 2\.0 listening on/, 60000);
				await assertRefused(ctx, inst.port, 'module on');
			} finally {
				await inst.stop();
			}
		},
	},
];
