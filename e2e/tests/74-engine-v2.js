'use strict';
/**
 * n8n's Engine 2.0 (a workflow's `settings.engineType: 'v2'`) in real n8n, with its `engine-v2` module
 * off (the suite's own n8n): each of the three triggers refuses to be published in such a workflow,
 * with what to change, instead of losing events one log line at a time (nodes/shared/engine.ts says
 * why for each, from n8n's source); nothing is registered at the service and nothing runs. With the
 * module on: e2e/tests/75-poll-trigger-scheduler.js, whose n8n of its own runs it (e2e/lib/engineV2.js).
 */
const E = require('../lib/engineV2');

module.exports = [
	{
		name: 'engine 2.0: each trigger in a workflow set to Engine 2.0 (its module off) is refused at publishing with the setting to change; nothing registered, nothing runs',
		needs: ['platformTriggerPosts', 'platformPostTriggers', 'platformPostsTrigger'],
		modes: ['regular'],
		workflows: (ctx) => {
			E.addUser(ctx);
			return E.workflows(ctx);
		},
		timeoutMs: 120000,
		async run(ctx) {
			await E.assertRefused(ctx, ctx.inst.port, 'module off');
		},
	},
];
