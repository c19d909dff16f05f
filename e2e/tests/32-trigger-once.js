'use strict';
/**
 * Platform Trigger against the service's rules, inside n8n (regular mode):
 *   - All Events with a user credential: DM subscriptions are made with the user token, public ones with
 *     the app bearer; without a user credential activation fails with a message that names the
 *     credential to add, and nothing is registered;
 *   - the same event delivered 5 times at once, and 3 times back to back, runs the workflow once each;
 *   - after an n8n restart, a CRC check and a delivery are answered in under 1 s while the sandbox holds
 *     the replay request for 20 s; the replay that re-sends events already handled adds no run;
 *   - Account Activity mode: the account is subscribed, a favorite runs the workflow once, deactivation
 *     removes the account subscription and the webhook.
 */
const F = require('../lib/fixtures');
const { activate, activationError, deactivate } = require('../lib/rest');

const ALL = { id: 'e2eTriggerAll001', sink: 'trigger-all', hook: F.uuidFrom('e2e-trigger-all') };
const NO_USER = {
	id: 'e2eTriggerNoUsr1',
	sink: 'trigger-no-user',
	hook: F.uuidFrom('e2e-trigger-no-user'),
};
const AA = {
	id: 'e2eTriggerAcct01',
	sink: 'trigger-account',
	hook: F.uuidFrom('e2e-trigger-account'),
};

function triggerWorkflow(ctx, wf, name, parameters, credentials) {
	const trigger = F.node(
		'Platform Trigger',
		F.T.trigger,
		1,
		Object.assign({ options: {} }, parameters),
		[0, 0],
		{
			webhookId: wf.hook,
			credentials: Object.assign({}, ...credentials.map(F.credRef)),
		},
	);
	return F.workflow(
		wf.id,
		name,
		[trigger, F.sinkNode('Record Run', ctx.sandboxUrl, wf.sink, [300, 0])],
		F.chain(['Platform Trigger', 'Record Run']),
	);
}

const hookOf = (ctx, wf) =>
	[...ctx.sandbox.db.webhooks.values()].find((w) => w.url.includes(`/webhook/${wf.hook}`));

/** Records an event at the sandbox (so that a replay re-sends it) without delivering it; returns its raw body. */
async function recordedEvent(ctx, hook, text) {
	hook.valid = false;
	try {
		const [e] = await ctx.sandbox.emit({ event_type: 'post.create', text, webhook_id: hook.id });
		return {
			id: e.event_uuid,
			raw: ctx.sandbox.db.events.find((x) => x.event_uuid === e.event_uuid).raw,
		};
	} finally {
		hook.valid = true;
	}
}

module.exports = [
	{
		name: 'trigger: All Events with a user credential subscribes DM events with the user token and public ones with the bearer',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		workflows: (ctx) => [
			triggerWorkflow(
				ctx,
				ALL,
				'e2e trigger all events',
				{
					mode: 'activity',
					events: ['*'],
					user: ctx.keys.userId,
					userAuthentication: 'platformOAuth2Api',
					direction: 'received',
				},
				[F.CRED.bearer, F.CRED.oauth2],
			),
			triggerWorkflow(
				ctx,
				NO_USER,
				'e2e trigger all events, no user credential',
				{ mode: 'activity', events: ['*'], user: ctx.keys.userId },
				[F.CRED.bearer],
			),
		],
		publish: () => [ALL.id],
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const hook = await ctx.waitFor(
				'the All Events trigger to register its webhook and subscriptions',
				() => {
					const w = hookOf(ctx, ALL);
					return (
						w &&
						[...sandbox.db.subscriptions.values()].filter((s) => s.webhook_id === w.id).length >=
							12 &&
						w
					);
				},
				{ timeoutMs: 60000 },
			);
			const made = ctx
				.records(0, '/2/activity/subscriptions')
				.filter(
					(r) => r.method === 'POST' && r.status === 200 && r.body && r.body.webhook_id === hook.id,
				);
			assert.ok(made.length >= 12, `subscriptions made: ${made.length}`);
			for (const r of made) {
				const dm = String(r.body.event_type).startsWith('dm.');
				assert.equal(
					r.auth.kind,
					dm ? 'oauth2' : 'app',
					`${r.body.event_type} was subscribed with ${r.auth.kind}`,
				);
				assert.equal(
					r.body.filter.direction,
					dm ? 'received' : undefined,
					`${r.body.event_type} direction`,
				);
			}

			// Without a user credential: refused at activation, before anything is registered.
			const seq = sandbox.seq;
			const answer = await activate(ctx, NO_USER.id);
			const shown = answer.ok ? await activationError(ctx, NO_USER.id) : answer.text;
			assert.match(
				String(shown),
				/need a user credential/,
				`n8n shows why activation failed: ${answer.status} ${String(shown).slice(0, 500)}`,
			);
			assert.equal(hookOf(ctx, NO_USER), undefined, 'no webhook registered');
			// Nothing was registered or subscribed for it (n8n's own background traffic may read meanwhile).
			const calls = ctx
				.records(seq)
				.filter((r) => r.method !== 'GET' && !r.path.startsWith('/_sandbox'));
			assert.deepEqual(
				calls.map((r) => `${r.method} ${r.path}`),
				[],
				'no request changed anything at the service',
			);
		},
	},
	{
		name: 'trigger: the same event 5 times at once and 3 times back to back runs once each',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		timeoutMs: 120000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const hook = hookOf(ctx, ALL);
			assert.ok(hook, 'the All Events trigger is registered (previous test)');
			ctx.clearSink(ALL.sink);
			const together = await recordedEvent(ctx, hook, 'delivered five times at once');
			const answers = await Promise.all(
				Array.from({ length: 5 }, () =>
					sandbox.deliver(hook, together.raw, { event_uuid: together.id }),
				),
			);
			assert.deepEqual(
				answers.map((d) => d.status),
				[200, 200, 200, 200, 200],
			);
			const inTurn = await recordedEvent(ctx, hook, 'delivered three times in turn');
			for (let i = 0; i < 3; i++)
				assert.equal(
					(await sandbox.deliver(hook, inTurn.raw, { event_uuid: inTurn.id })).status,
					200,
				);
			await ctx.waitFor('a run for each event', () => ctx.sink(ALL.sink).length >= 2, {
				timeoutMs: 60000,
			});
			await ctx.sleep(4000); // a second run would arrive within this window
			const counts = ctx.runCounts(ALL.sink);
			assert.deepEqual(counts, { [together.id]: 1, [inTurn.id]: 1 });
			ctx.handledOnce = [together.id, inTurn.id];
		},
	},
	{
		name: 'trigger: after a restart, CRC and delivery are answered in under 1 s while the replay is held 20 s; the replay adds no run',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		timeoutMs: 300000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			const hook = hookOf(ctx, ALL);
			const handled = ctx.handledOnce || [];
			assert.equal(handled.length, 2, 'the events of the previous test');
			await inst.stopN8n();
			// Restart in a later minute (the replay covers whole minutes since the last delivery).
			const nextMinute = (Math.floor(Date.now() / 60000) + 1) * 60000;
			await ctx.sleep(Math.max(0, nextMinute - Date.now()) + 1000);
			sandbox.faults.rules.push({
				status: 0,
				delayMs: 20000,
				remaining: 1,
				path: '^/2/webhooks/replay$',
				method: 'POST',
			});
			const jobsBefore = sandbox.db.replayJobs.length;
			await inst.start();
			// n8n's first webhook call after a start pays for its own warm-up (database, expression
			// isolates): take it on another trigger's CRC, which has no gap to recover.
			const other = hookOf(ctx, AA);
			if (other)
				await ctx.waitFor(
					'n8n to answer webhook calls again',
					async () => (await sandbox.crc(other, { reason: 'e2e-warm-up' })).ok,
					{ timeoutMs: 60000, intervalMs: 500 },
				);
			const crc = await ctx.waitFor(
				'n8n to answer the CRC check again',
				async () => {
					const c = await sandbox.crc(hook, { reason: 'e2e-after-restart' });
					return c.status && c.status !== 404 && c;
				},
				{ timeoutMs: 60000, intervalMs: 500 },
			);
			assert.equal(crc.ok, true, `CRC after the restart: ${crc.why}`);
			ctx.H.log(`CRC after the restart answered in ${crc.ms} ms (replay held 20 s)`);
			assert.ok(crc.ms < 1000, `CRC answered in ${crc.ms} ms`);
			const [after] = await sandbox.emit({
				event_type: 'post.create',
				text: 'sent after the restart',
				webhook_id: hook.id,
			});
			assert.equal(after.deliveries[0].status, 200);
			ctx.H.log(`delivery after the restart answered in ${after.deliveries[0].ms} ms`);
			assert.ok(after.deliveries[0].ms < 1000, `delivery answered in ${after.deliveries[0].ms} ms`);
			await ctx.waitFor(
				'the replay request to arrive (it is held 20 s)',
				() => sandbox.faults.rules.some((r) => r.delayMs === 20000 && r.remaining === 0),
				{ timeoutMs: 10000 },
			);
			const job = await ctx.waitFor(
				'the held replay job to be created and to finish',
				() => {
					const j = sandbox.db.replayJobs.slice(jobsBefore).find((x) => x.webhook_id === hook.id);
					return j && j.finished_at && j;
				},
				{ timeoutMs: 90000 },
			);
			assert.ok(job.delivered >= 1, `the replay re-sent events: ${JSON.stringify(job)}`);
			await ctx.waitFor(
				'the run for the event sent after the restart',
				() => ctx.runCounts(ALL.sink)[after.event_uuid] >= 1,
				{ timeoutMs: 60000 },
			);
			await ctx.sleep(4000);
			const counts = ctx.runCounts(ALL.sink);
			for (const id of [...handled, after.event_uuid])
				assert.equal(
					counts[id],
					1,
					`event ${id} ran ${counts[id]} times: ${JSON.stringify(counts)}`,
				);
		},
	},
	{
		name: 'trigger: Account Activity mode subscribes the account, a favorite runs once, deactivation removes the account and the webhook',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		workflows: (ctx) => [
			triggerWorkflow(
				ctx,
				AA,
				'e2e trigger account activity',
				{ mode: 'accountActivity', accountEvents: ['*'], userAuthentication: 'platformOAuth1Api' },
				[F.CRED.bearer, F.CRED.oauth1],
			),
		],
		publish: () => [AA.id],
		timeoutMs: 180000,
		async run(ctx) {
			const { assert, sandbox } = ctx;
			const hook = await ctx.waitFor(
				"the account to be subscribed to the trigger's webhook",
				() => {
					const w = hookOf(ctx, AA);
					const users = w && sandbox.db.accountSubscriptions.get(w.id);
					return users && users.has(ctx.keys.userId) && w;
				},
				{ timeoutMs: 60000 },
			);
			const subscribe = ctx
				.records(0, `/2/account_activity/webhooks/${hook.id}/subscriptions/all`)
				.find((r) => r.method === 'POST');
			assert.equal(subscribe.auth.kind, 'oauth1', 'subscribed in user context');
			ctx.clearSink(AA.sink);
			const [fav] = await sandbox.emit({
				event_type: 'favorite',
				shape: 'account_activity',
				text: 'liked',
			});
			const ours = fav.deliveries.find((d) => d.webhook_id === hook.id);
			assert.equal(
				ours && ours.status,
				200,
				`favorite delivered: ${JSON.stringify(fav.deliveries)}`,
			);
			const raw = sandbox.db.events.find(
				(e) => e.event_uuid === fav.event_uuid && e.webhook_id === hook.id,
			).raw;
			assert.equal((await sandbox.deliver(hook, raw, { event_uuid: fav.event_uuid })).status, 200);
			await ctx.waitFor('a run for the favorite', () => ctx.sink(AA.sink).length >= 1, {
				timeoutMs: 60000,
			});
			await ctx.sleep(3000);
			const runs = ctx.sink(AA.sink).map((i) => i.body);
			assert.equal(runs.length, 1, `runs: ${JSON.stringify(runs).slice(0, 400)}`);
			assert.equal(runs[0].event_type, 'favorite');
			assert.deepEqual(runs[0].filter, { user_id: ctx.keys.userId });

			await deactivate(ctx, AA.id);
			await ctx.waitFor(
				'deactivation to remove the account subscription and the webhook',
				() => !sandbox.db.webhooks.has(hook.id),
				{ timeoutMs: 60000 },
			);
			assert.equal(sandbox.db.accountSubscriptions.has(hook.id), false);
			const removed = ctx
				.records(0, `/2/account_activity/webhooks/${hook.id}/subscriptions/${ctx.keys.userId}/all`)
				.find((r) => r.method === 'DELETE');
			assert.ok(
				removed && removed.status === 200 && removed.auth.kind === 'app',
				`the account was removed with the app bearer: ${JSON.stringify(removed)}`,
			);
		},
	},
];
