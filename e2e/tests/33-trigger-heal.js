'use strict';
/**
 * The trigger heals itself (regular mode):
 *   - the shipped watchdog example (Schedule Trigger every minute → Platform Posts → Admin → Re-Validate
 *     Invalid Webhooks) is published beside a Platform Trigger workflow;
 *   - n8n stops; the service's CRC check fails and the webhook is marked invalid; events keep being
 *     recorded for it, none is delivered;
 *   - n8n starts again (n8n itself calls nothing on the trigger); within one watchdog interval the
 *     webhook is valid again, and every event sent while n8n was down has run exactly once (the
 *     re-validation CRC reaches the trigger, which asks for the replay of its own gap).
 *   - `npm start` twice (the second without --fresh, on other ports): the second start moves the
 *     example's webhook to its new URL, says when the trigger is subscribed, and an emitted event
 *     runs the trigger example once, successfully.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const F = require('../lib/fixtures');
const H = require('../lib/host');
const { activate, deactivate, session } = require('../lib/rest');

const HEAL = { id: 'e2eTriggerHeal01', sink: 'trigger-heal', hook: F.uuidFrom('e2e-trigger-heal') };
const WATCHDOG_ID = 'exWebhookWatch01';
const WATCHDOG_INTERVAL_MS = 60000;

function watchdogExample() {
	const wf = F.loadExamples(path.join(H.ROOT, 'examples')).find((w) => w.id === WATCHDOG_ID);
	if (!wf) throw new Error(`examples/ has no workflow ${WATCHDOG_ID}`);
	delete wf.file;
	return wf;
}

function triggerWorkflow(ctx) {
	const trigger = F.node(
		'Platform Trigger',
		F.T.trigger,
		1,
		{ mode: 'activity', events: ['post.create'], user: ctx.keys.userId, options: {} },
		[0, 0],
		{
			webhookId: HEAL.hook,
			credentials: F.credRef(F.CRED.bearer),
		},
	);
	return F.workflow(
		HEAL.id,
		'e2e trigger heal',
		[trigger, F.sinkNode('Record Run', ctx.sandboxUrl, HEAL.sink, [300, 0])],
		F.chain(['Platform Trigger', 'Record Run']),
	);
}

const hookOf = (ctx) =>
	[...ctx.sandbox.db.webhooks.values()].find((w) => w.url.includes(`/webhook/${HEAL.hook}`));

async function control(ctx, method, p, body) {
	const r = await fetch(`${ctx.sandboxUrl}${p}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: r.status, body: await r.json() };
}

/** Runs `node scripts/start.js --skip-build` until its banner; returns the child and the sandbox URL. */
async function npmStart({ runDir, port, sandboxPort, label }) {
	const logFile = path.join(runDir, `start-${label}.log`);
	const child = H.startProcess(
		`npm start (${label})`,
		process.execPath,
		[
			path.join(H.ROOT, 'scripts', 'start.js'),
			'--skip-build',
			'--port',
			String(port),
			'--sandbox-port',
			String(sandboxPort),
		],
		{
			env: Object.assign({}, process.env, { PLATFORM_RUN_DIR: runDir }),
			logFile,
			cwd: H.ROOT,
		},
	);
	await H.waitForLog(child, /Press Ctrl-C to stop n8n and the sandbox/, 300000);
	return { child, logFile, sandboxUrl: `http://127.0.0.1:${sandboxPort}` };
}

module.exports = [
	{
		name: 'trigger heal: webhook invalidated while n8n was down; the watchdog example re-validates it within one interval and every missed event runs once',
		needs: ['platformTriggerPosts', 'platformPosts'],
		modes: ['regular'],
		workflows: (ctx) => [triggerWorkflow(ctx), watchdogExample()],
		publish: () => [HEAL.id],
		timeoutMs: 330000,
		async run(ctx) {
			const { assert, sandbox, inst } = ctx;
			const hook = await ctx.waitFor('the trigger to register its webhook', () => hookOf(ctx), {
				timeoutMs: 60000,
			});
			ctx.clearSink(HEAL.sink);
			const [before] = await sandbox.emit({
				event_type: 'post.create',
				text: 'before the outage',
				webhook_id: hook.id,
			});
			await ctx.waitFor(
				'the run of the event sent before the outage',
				() => ctx.runCounts(HEAL.sink)[before.event_uuid] === 1,
				{ timeoutMs: 60000 },
			);
			// The watchdog is published like a user would: with the editor's toggle, before the outage.
			const published = await activate(ctx, WATCHDOG_ID);
			assert.ok(
				published.ok,
				`publishing the watchdog: ${published.status} ${published.text.slice(0, 300)}`,
			);

			await inst.stopN8n();
			const invalidated = await control(ctx, 'POST', `/_sandbox/webhooks/${hook.id}/invalidate`);
			assert.equal(invalidated.status, 200, JSON.stringify(invalidated.body));
			assert.equal(hook.valid, false, 'the service marked the webhook invalid');
			const missed = [];
			for (const text of ['missed one', 'missed two', 'missed three']) {
				const [e] = await sandbox.emit({ event_type: 'post.create', text, webhook_id: hook.id });
				assert.deepEqual(
					e.deliveries.map((d) => d.skipped),
					['webhook invalid'],
					'recorded, not delivered',
				);
				missed.push(e.event_uuid);
			}
			// Restart in a later minute than the last delivery: the replay covers whole minutes since it.
			const nextMinute = (Math.floor(Date.now() / 60000) + 1) * 60000;
			await ctx.sleep(Math.max(0, nextMinute - Date.now()) + 1000);
			const seq = sandbox.seq;
			await inst.start();
			const ready = Date.now();
			await ctx.waitFor('the watchdog to re-validate the webhook', () => hook.valid === true, {
				timeoutMs: WATCHDOG_INTERVAL_MS + 30000,
				intervalMs: 500,
			});
			const healedAfter = Date.now() - ready;
			const puts = ctx.records(seq, `/2/webhooks/${hook.id}`).filter((r) => r.method === 'PUT');
			assert.ok(
				puts.length >= 1 && puts[0].status === 200 && puts[0].auth.kind === 'app',
				`the watchdog's PUT: ${JSON.stringify(puts.map((r) => [r.status, r.auth]))}`,
			);
			assert.ok(
				healedAfter <= WATCHDOG_INTERVAL_MS + 15000,
				`valid again ${healedAfter} ms after n8n was ready (one interval: ${WATCHDOG_INTERVAL_MS} ms, plus the run itself)`,
			);
			await ctx.waitFor(
				'a run of every event sent while n8n was down',
				() => missed.every((id) => ctx.runCounts(HEAL.sink)[id] >= 1),
				{ timeoutMs: 60000 },
			);
			await ctx.sleep(4000); // a second run would arrive within this window
			const counts = ctx.runCounts(HEAL.sink);
			for (const id of [before.event_uuid, ...missed])
				assert.equal(
					counts[id],
					1,
					`event ${id} ran ${counts[id]} times: ${JSON.stringify(counts)}`,
				);
			const replays = ctx
				.records(seq, '/2/webhooks/replay')
				.filter((r) => r.method === 'POST' && r.status === 200);
			assert.equal(replays.length, 1, 'one replay, asked for by the trigger itself');
			await deactivate(ctx, WATCHDOG_ID);
		},
	},
	{
		name: 'npm start twice (the second without --fresh, on other ports): the webhook moves to the new URL and an emitted event runs the trigger example once, successfully',
		needs: ['platformTriggerPosts'],
		modes: ['regular'],
		timeoutMs: 420000,
		async run(ctx) {
			const { assert } = ctx;
			const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-start-'));
			const port = await H.freePort();
			const sandboxPort = await H.freePort();
			let started;
			try {
				started = await npmStart({ runDir, port, sandboxPort, label: 'first' });
				// npm start's banner comes when the editor is up; the example's activation, and with it the
				// webhook registration that the sandbox writes to its state file, may still be under way.
				const stateFile = path.join(runDir, 'sandbox-state.json');
				const first = await ctx.waitFor(
					'the example to register its webhook (sandbox state file)',
					() => {
						try {
							const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
							return state.webhooks && state.webhooks.length ? state : undefined;
						} catch {
							return undefined; // not written yet
						}
					},
					{ timeoutMs: 120000 },
				);
				assert.equal(
					first.webhooks.length,
					1,
					`the example registered its webhook: ${JSON.stringify(first.webhooks)}`,
				);
				// The banner says when the trigger is subscribed (events before that are not delivered).
				assert.match(fs.readFileSync(started.logFile, 'utf8'), /trigger +READY: /);
				await H.stopProcess(started.child, { signal: 'SIGINT', graceMs: 30000 });
				// The second start on other ports: the registered webhook still names the first port.
				const port2 = await H.freePort();
				const sandboxPort2 = await H.freePort();
				started = await npmStart({
					runDir,
					port: port2,
					sandboxPort: sandboxPort2,
					label: 'second',
				});
				const log = fs.readFileSync(started.logFile, 'utf8');
				assert.match(log, /sandbox state restored .*1 webhooks/);
				assert.match(log, new RegExp(`webhook moved from \\S+:${port}/\\S+ to \\S+:${port2}/`));
				assert.match(log, /trigger +READY: /);
				const state = await (await fetch(`${started.sandboxUrl}/_sandbox/state`)).json();
				const hooks = state.webhooks.map((w) => w.url);
				assert.equal(hooks.length, 1, `one webhook, at the new URL: ${JSON.stringify(hooks)}`);
				assert.ok(hooks[0].includes(`:${port2}/`), `the webhook names the new port: ${hooks[0]}`);
				// The example's trigger answers a CRC check itself at the new URL. The registered URL
				// names localhost, which Node's fetch may try over IPv6 first. The token must look like
				// one (16 to 128 characters), or the trigger answers 400.
				const webhookUrl = hooks[0].replace('//localhost:', '//127.0.0.1:');
				await ctx.waitFor(
					'the example to be active after the second start',
					async () => {
						// A thrown error is what the timeout message shows: the last answer.
						const r = await fetch(`${webhookUrl}?crc_token=e2e-second-start-check`);
						if (r.status !== 200)
							throw new Error(
								`${webhookUrl} answered ${r.status} ${(await r.text()).slice(0, 200)}`,
							);
						return true;
					},
					{ timeoutMs: 120000 },
				);
				const emitted = await fetch(`${started.sandboxUrl}/_sandbox/events`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ event_type: 'post.create', text: 'after the second start' }),
				});
				const [event] = (await emitted.json()).events;
				assert.deepEqual(
					event.deliveries.map((d) => d.status),
					[200],
					`delivered to the example: ${JSON.stringify(event.deliveries)}`,
				);
				// One run of the example: its trigger saw the event once (n8n's executions of that workflow).
				const owner = JSON.parse(fs.readFileSync(path.join(runDir, 'owner.json'), 'utf8'));
				const demo = await session(port2, owner);
				const example = F.loadExamples(path.join(H.ROOT, 'examples')).find((w) =>
					w.nodes.some((n) => n.type === F.T.trigger),
				);
				const executions = () => demo.executions(example.id);
				await ctx.waitFor('the example to run', async () => (await executions()).length >= 1, {
					timeoutMs: 60000,
				});
				await ctx.sleep(4000);
				const runs = await executions();
				assert.equal(runs.length, 1, 'exactly one run of the trigger example');
				assert.equal(runs[0].status, 'success', `the run succeeded: ${JSON.stringify(runs[0])}`);
			} finally {
				if (started) await H.stopProcess(started.child, { signal: 'SIGINT', graceMs: 30000 });
				fs.rmSync(runDir, { recursive: true, force: true });
			}
		},
	},
];
