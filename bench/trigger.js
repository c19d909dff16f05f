#!/usr/bin/env node
'use strict';
/**
 * Trigger benchmark, in a real n8n 2.40.7 with the package installed, five workflows side by side in
 * the same n8n, on the same signed payloads, all ending in the same sink node:
 *
 *   - Platform Trigger, at its default version (what a new workflow gets; BENCH_TRIGGER_VERSION=1
 *     measures a workflow saved with the first version, on which n8n evaluates an expression per call);
 *   - n8n's Webhook node on n8n's isolate path (typeVersion 1): what any webhook node other than n8n's
 *     static Webhook costs in n8n;
 *   - the do-it-yourself workflow (Webhook with raw body -> Crypto HMAC -> IF signature -> sink, and a GET
 *     Webhook -> Crypto -> Respond to Webhook for the CRC);
 *   - n8n's plain static Webhook v2 (no isolate): the upper line;
 *   - an empty community webhook node (answers 200, emits {}): n8n's floor for any community webhook node.
 *
 * One target, in runs finished per second, for every mode and both comparisons (pairing.js TARGET):
 * trigger ÷ side ≥ 1.0×, for Webhook v1 and for do-it-yourself. The headline is trigger ÷ Webhook v1
 * with n8n's default expression engine (n8n charges every webhook node but its static Webhook an
 * isolate per call, which the do-it-yourself workflow never pays) and trigger ÷ do-it-yourself with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (n8n then takes an isolate only where an expression is
 * evaluated, and the trigger's answer evaluates none).
 *
 * Rounds (pairing.js): in every round the trigger and the headline side run back to back, each first in
 * every other round, and the other sides rotate around that pair. n8n slows through a run, so the
 * number of rounds is even: an odd BENCH_ROUNDS is rounded up to the next even number (and the run says
 * so). Each ratio trigger ÷ side is the median over rounds of (trigger's runs/s in round r ÷ the side's
 * runs/s in round r); every round's ratio is printed too. A round of one side ends when the sink holds
 * every run, so a backlog of one side never slows the next. Then forged deliveries to the trigger and
 * the DIY workflow (executions counted over n8n's REST API), and CRC p50/p99 idle and with
 * BENCH_CRC_INFLIGHT (16) signed deliveries in flight, for the trigger and the DIY GET path, every answer
 * checked, and for a GET on the isolate-path Webhook v1 (answered on receipt, no CRC: n8n's own floor).
 *
 * Modes: BENCH_LAZY=both (default) measures everything twice, each time in a freshly started n8n (with
 * its own sandbox): without, then with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true. Ratios are taken within
 * a mode, never across. BENCH_LAZY=off or on measures one mode (half the time). Both by default because
 * n8n's default is off while the production advice is on, and a run of only one could report the
 * headline that suits it; with N8N_EXPRESSION_ENGINE=legacy in BENCH_N8N_ENV the default is off (that
 * engine takes no isolate, so lazy acquire changes nothing). Set the variable with BENCH_LAZY, never
 * in BENCH_N8N_ENV (refused).
 *
 * Sizes: BENCH_ROUNDS (4) rounds of BENCH_REQUESTS (300) deliveries per side at BENCH_CONCURRENCY (8) in
 * flight, BENCH_FORGED (100) forged deliveries per side, BENCH_CRC (300) CRC requests per side and
 * condition (under load, at most BENCH_CRC_LOAD_SECONDS (45) of checks; then the runs drain for at most
 * BENCH_DRAIN_MAX_SECONDS (240), and a run counts as lost only when the sink stops growing). Tables go
 * to bench/results/<date>.md (bench/report.js) and the raw figures of each mode to
 * bench/results/trigger-<time>.json (trigger-<time>-lazy.json with lazy acquire). Exits 1 only when
 * something failed: a delivery lost or refused, a wrong CRC answer, a forged delivery reaching the
 * sink. Ratios are reported, never enforced.
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const http = require('node:http');

const H = require('../e2e/lib/host');
const F = require('../e2e/lib/fixtures');
const { Instance } = require('../e2e/lib/instance');
const { createSandbox } = require('../sandbox/server');
const rest = require('../e2e/lib/rest');
const R = require('./report');
const { TARGET, evenRounds, roundOrder, median, pairedRatio, lazyModes } = require('./pairing');

const ROUND_PLAN = evenRounds(process.env.BENCH_ROUNDS || 4);
const ROUNDS = ROUND_PLAN.rounds;
const REQUESTS = Number(process.env.BENCH_REQUESTS || 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
const CRC_REQUESTS = Number(process.env.BENCH_CRC || 300);
const FORGED = Number(process.env.BENCH_FORGED || 100);
const CRC_INFLIGHT = Number(process.env.BENCH_CRC_INFLIGHT || 16);
/** The service gives a webhook 3 s to answer a CRC check. */
const CRC_DEADLINE_MS = 3000;
const WARMUP = Number(process.env.BENCH_WARMUP || 30);
/**
 * How long the CRC checks run while deliveries are in flight. The deliveries are answered faster than
 * their runs finish, so an unbounded load step leaves a backlog that takes minutes to drain.
 */
const CRC_LOAD_SECONDS = Number(process.env.BENCH_CRC_LOAD_SECONDS || 45);
/** How long a side's runs may take to drain after its deliveries were answered. */
const DRAIN_MAX_MS = Number(process.env.BENCH_DRAIN_MAX_SECONDS || 240) * 1000;
/** A run counts as lost only when the sink has not grown for this long. */
const STALL_MS = 20000;
/** Extra n8n environment for every side, e.g. BENCH_N8N_ENV='{"N8N_EXPRESSION_ENGINE_POOL_SIZE":"4"}'. */
const EXTRA_ENV = JSON.parse(process.env.BENCH_N8N_ENV || '{}');
const LAZY_VAR = 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE';
if (LAZY_VAR in EXTRA_ENV)
	throw new Error(`set ${LAZY_VAR} with BENCH_LAZY=on|off|both, not in BENCH_N8N_ENV`);
/** The modes of this run (see the header). */
const MODES = lazyModes(
	process.env.BENCH_LAZY,
	EXTRA_ENV.N8N_EXPRESSION_ENGINE === 'legacy' ? 'off' : 'both',
);
/** The side of the headline ratio, run back to back with the trigger in every round. */
const headlineOf = (mode) => (mode.lazy ? 'diy' : 'isolate');
/**
 * Only these sides (comma-separated keys: trigger, isolate, diy, plain, empty), e.g. for a CPU profile of
 * one side (BENCH_N8N_ENV='{"NODE_OPTIONS":"--cpu-prof --cpu-prof-dir=/tmp/prof"}'). Default: all.
 */
const ONLY_SIDES = process.env.BENCH_SIDES ? process.env.BENCH_SIDES.split(',') : undefined;

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/**
 * n8n's floor for any community webhook node: a package with one node that answers 200 and emits {}
 * (no credential, no parameter, no state). Built in the bench's work folder, packed and installed beside
 * this package, so n8n loads it the way it loads any community package.
 */
const EMPTY_PACKAGE = 'n8n-nodes-bench-empty';
const EMPTY_NODE_TYPE = `${EMPTY_PACKAGE}.benchEmptyWebhook`;
const EMPTY_NODE_SOURCE = `'use strict';
class BenchEmptyWebhook {
	constructor() {
		this.description = {
			displayName: 'Bench Empty Webhook',
			name: 'benchEmptyWebhook',
			group: ['trigger'],
			version: 1,
			description: 'Answers 200 and emits one empty item',
			defaults: { name: 'Bench Empty Webhook' },
			inputs: [],
			outputs: ['main'],
			webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
			properties: [],
		};
	}
	async webhook() {
		return { workflowData: [[{ json: {} }]] };
	}
}
module.exports = { BenchEmptyWebhook };
`;

function installEmptyPackage(work, nodesDir) {
	const dir = path.join(work, 'empty-package');
	fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
	fs.writeFileSync(path.join(dir, 'dist', 'BenchEmptyWebhook.node.js'), EMPTY_NODE_SOURCE);
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{
				name: EMPTY_PACKAGE,
				version: '1.0.0',
				license: 'MIT',
				keywords: ['n8n-community-node-package'],
				files: ['dist'],
				n8n: { n8nNodesApiVersion: 1, nodes: ['dist/BenchEmptyWebhook.node.js'], credentials: [] },
			},
			null,
			2,
		),
	);
	const tgz = H.run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: dir })
		.trim()
		.split('\n')
		.pop();
	H.run(
		'npm',
		[
			'install',
			path.join(work, tgz),
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
		],
		{ cwd: nodesDir },
	);
}

const BENCH_EMPTY_PATH = 'webhook';
function benchEmptyWorkflow(sandboxUrl) {
	return F.workflow(
		'benchEmptyFlow01',
		'bench empty community webhook node',
		[
			F.node('Empty Webhook', EMPTY_NODE_TYPE, 1, {}, [0, 0], {
				webhookId: F.uuidFrom('bench-empty'),
			}),
			F.sinkNode('Done', sandboxUrl, 'bench-empty', [300, 0]),
		],
		F.chain(['Empty Webhook', 'Done']),
	);
}

function post(url, body, headers, via = agent) {
	return new Promise((resolve) => {
		const started = process.hrtime.bigint();
		const req = http.request(
			url,
			{
				method: 'POST',
				agent: via,
				headers: Object.assign(
					{ 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
					headers,
				),
				timeout: 30000,
			},
			(res) => {
				res.resume();
				res.on('end', () =>
					resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
				);
			},
		);
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', (error) =>
			resolve({
				status: 0,
				error: error.message,
				ms: Number(process.hrtime.bigint() - started) / 1e6,
			}),
		);
		req.end(body);
	});
}

function get(url) {
	return new Promise((resolve) => {
		const started = process.hrtime.bigint();
		http
			.get(url, { agent, timeout: 30000 }, (res) => {
				let text = '';
				res.on('data', (c) => (text += c));
				res.on('end', () =>
					resolve({
						status: res.statusCode,
						text,
						type: res.headers['content-type'],
						ms: Number(process.hrtime.bigint() - started) / 1e6,
					}),
				);
			})
			.on('error', (error) =>
				resolve({
					status: 0,
					error: error.message,
					ms: Number(process.hrtime.bigint() - started) / 1e6,
				}),
			);
	});
}

/**
 * Sends the bodies with `concurrency` in flight, then waits until the workflow has finished a run for
 * each (its sink holds them all). Returns accepted deliveries/second (answers), processed
 * deliveries/second (finished runs) and failures. Waiting for the runs keeps a backlog of one side
 * from slowing the other side down.
 */
async function blast(url, bodies, sign, sink, cpuMs) {
	return blastWith(url, bodies, sign, sink, { concurrency: CONCURRENCY, via: agent, cpuMs });
}
async function blastWith(
	url,
	bodies,
	sign,
	sink,
	{ concurrency, via, stop = () => false, cpuMs = () => NaN },
) {
	let next = 0;
	const cpuBefore = cpuMs();
	let failures = 0;
	const before = sink ? sink().length : 0;
	const started = Date.now();
	// The monotonic clock a V8 CPU profile of n8n also uses (bench/profile-summary.js cuts it by these).
	const monoStartUs = Number(process.hrtime.bigint() / 1000n);
	async function worker() {
		while (next < bodies.length && !stop()) {
			const body = bodies[next++];
			const r = await post(url, body, { 'x-platform-webhooks-signature': sign(body) }, via);
			if (r.status !== 200) failures++;
		}
	}
	await Promise.all(Array.from({ length: concurrency }, worker));
	const sent = next;
	bodies = bodies.slice(0, sent);
	const accepted = (Date.now() - started) / 1000;
	if (!sink)
		return {
			perSecond: bodies.length / accepted,
			acceptedPerSecond: bodies.length / accepted,
			seconds: accepted,
			failures,
		};
	const expected = before + bodies.length - failures;
	// A run is lost only when the sink stops growing (STALL_MS without a new run) short of the count;
	// a backlog that is still draining when DRAIN_MAX_MS runs out is reported, not counted as lost.
	const deadline = Date.now() + DRAIN_MAX_MS;
	let last = sink().length;
	let lastChange = Date.now();
	let stalled = false;
	while (sink().length < expected) {
		if (Date.now() > deadline) break;
		if (Date.now() - lastChange > STALL_MS) {
			stalled = true;
			break;
		}
		await new Promise((r) => setTimeout(r, 50));
		if (sink().length !== last) {
			last = sink().length;
			lastChange = Date.now();
		}
	}
	const runs = sink().length - before;
	const seconds = (Date.now() - started) / 1000;
	const missing = bodies.length - failures - runs;
	return {
		perSecond: runs / seconds,
		// n8n's CPU time (every thread of its process: isolates, garbage collector, database) per run.
		cpuMsPerRun: (cpuMs() - cpuBefore) / runs,
		acceptedPerSecond: bodies.length / accepted,
		seconds,
		monoUs: [monoStartUs, Number(process.hrtime.bigint() / 1000n)],
		runs,
		failures: failures + (stalled ? missing : 0),
		stillRunning: stalled ? 0 : missing,
	};
}

function percentile(sorted, p) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

let bodySeq = 0;
function eventBodies(n, userId) {
	return Array.from({ length: n }, () => {
		bodySeq++;
		const id = String(1800000000000000000n + BigInt(bodySeq));
		return JSON.stringify({
			data: {
				event_uuid: `${Date.now()}${String(bodySeq).padStart(6, '0')}`,
				event_type: 'post.create',
				filter: { user_id: userId },
				payload: {
					id,
					text: `Benchmark post ${bodySeq} with some text to make the payload realistic #n8n`,
					author_id: userId,
					created_at: new Date().toISOString(),
					edit_history_tweet_ids: [id],
					lang: 'en',
				},
			},
		});
	});
}

/**
 * Sequential CRC checks of one URL: latencies and wrong answers (status, JSON type, token). With
 * `statusOnly`, only the status is checked (n8n's own Webhook answers GETs without a CRC token).
 */
async function crcRun(url, n, sign, { statusOnly = false, seconds = Infinity } = {}) {
	const times = [];
	let wrong = 0;
	const until = Date.now() + seconds * 1000;
	for (let i = 0; i < n && Date.now() < until; i++) {
		const token = crypto.randomBytes(24).toString('base64url');
		const r = await get(`${url}?crc_token=${token}`);
		times.push(r.ms);
		let ok = false;
		try {
			ok =
				r.status === 200 &&
				(statusOnly ||
					(JSON.parse(r.text).response_token === sign(token) && /json/.test(r.type || '')));
		} catch {
			ok = false;
		}
		if (!ok) wrong++;
	}
	times.sort((a, b) => a - b);
	return {
		requests: times.length,
		wrong,
		p50_ms: percentile(times, 50),
		p99_ms: percentile(times, 99),
		max_ms: times[times.length - 1],
	};
}

async function main() {
	const P = H.phases();
	const bench = H.benchWork('bench-trigger');
	const work = bench.dir;
	// What is running now, for the teardown and the logs of a failure.
	const live = {};
	const onSignal = () => H.stopAll().finally(() => process.exit(130));
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	const results = [];
	try {
		if (ROUND_PLAN.roundedUp)
			H.log(
				`BENCH_ROUNDS=${ROUND_PLAN.requested} is odd: running ${ROUNDS} rounds, so that the trigger and the headline side each go first equally often`,
			);
		const { tgz, missing } = await P.run('build and pack', () =>
			H.buildAndPack(path.join(work, 'pack')),
		);
		if (missing.some((m) => m.includes('PlatformTriggerPosts')))
			throw new Error('PlatformTrigger is not built: nothing to benchmark');
		const host = await P.run('prepare n8n host', () => H.prepareHost());
		for (const mode of MODES) {
			results.push(await measureMode(P, { mode, host, tgz, work, live }));
			await P.run(`${modeName(mode)}: stop n8n`, async () => {
				await live.inst.stop();
				await live.sandbox.close();
				live.inst = undefined;
				live.sandbox = undefined;
			});
		}
		if (results.length > 1)
			R.table(
				`Headlines, one per mode (each ratio within its own n8n; the target is the same in both: trigger ÷ side ≥ ${TARGET.toFixed(1)}×)`,
				['mode', 'headline', 'ratio (median of the rounds)', 'each round', 'target'],
				results.map((r) => [
					r.engine,
					`trigger ÷ ${r.headline.label}`,
					R.fmt(r.headline.ratio, 2),
					r.headline.perRound.map((x) => R.fmt(x, 2)).join(' / '),
					verdict(r.headline.ratio),
				]),
			);
		P.print();
		const failed = results.filter((r) => r.failed);
		if (failed.length) {
			for (const r of failed)
				console.error(
					`trigger benchmark, ${r.engine}: something failed (${r.failures} deliveries lost or refused, ${r.crcWrong} wrong CRC answers, ${r.forgedLeaks} forged deliveries got through)`,
				);
			process.exitCode = 1;
		}
		return results;
	} catch (error) {
		console.error('trigger benchmark failed:', error && error.stack ? error.stack : error);
		if (live.inst) console.error(live.inst.logTails(60));
		process.exitCode = 1;
	} finally {
		agent.destroy();
		await bench.finish(live.sandbox);
	}
}

const modeName = (mode) => (mode.lazy ? `${LAZY_VAR}=true` : `${LAZY_VAR} unset`);
const verdict = (ratio) =>
	`≥ ${TARGET.toFixed(1)}×: ${Number.isNaN(ratio) ? 'not measured' : ratio >= TARGET ? 'met' : 'NOT met'}`;

/**
 * One mode: a fresh sandbox and n8n with the mode's environment, the deliveries in paired rounds, the
 * forged deliveries and the CRC checks. Prints its tables, writes its JSON, returns its figures.
 */
async function measureMode(P, { mode, host, tgz, work, live }) {
	const env = Object.assign({}, EXTRA_ENV, mode.env);
	// The table titles name n8n's settings of this mode: its defaults, or what was changed.
	const engine = Object.keys(env).length
		? Object.entries(env)
				.map(([k, v]) => `${k}=${v}`)
				.join(' ')
		: "n8n's default expression engine";
	const tag = mode.lazy ? 'lazy' : 'default';
	const sandbox = await createSandbox({ quiet: true }).listen(0);
	live.sandbox = sandbox;
	const inst = new Instance({
		host,
		dir: path.join(work, tag),
		tgz,
		sandbox,
		label: `bench-${tag}`,
	});
	live.inst = inst;
	const userId = sandbox.keys.userId;
	inst.installed = H.installPackage(inst.userFolder, tgz);
	installEmptyPackage(path.join(work, tag), inst.installed.nodesDir);
	const workflows = [
		F.benchTriggerWorkflow(
			F.describeInstalled(inst.installed.pkgDir, 'platformTriggerPosts'),
			sandbox.url,
		),
		F.benchIsolateWorkflow(sandbox.url),
		F.benchDiyWorkflow(sandbox.url),
		F.benchPlainWorkflow(sandbox.url),
		benchEmptyWorkflow(sandbox.url),
	];
	await P.run(`${modeName(mode)}: install, import, publish`, () =>
		inst.setup({
			workflows,
			publish: workflows.map((w) => w.id),
			credentials: F.benchCredentials(sandbox.url, sandbox.keys),
			extraEnv: Object.assign(
				{ EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none', EXECUTIONS_DATA_SAVE_ON_ERROR: 'none' },
				env,
			),
		}),
	);
	await P.run(`${modeName(mode)}: start n8n`, () => inst.start());
	const hook = await H.waitFor(
		'the Platform Trigger to register its webhook',
		() => [...sandbox.db.webhooks.values()].find((w) => w.valid),
		{ timeoutMs: 60000 },
	);
	const sides = [
		{
			key: 'trigger',
			label: 'Platform Trigger',
			url: hook.url.replace('//localhost:', '//127.0.0.1:'),
			sink: 'bench-trigger',
			workflowId: workflows[0].id,
		},
		{
			key: 'isolate',
			label: "n8n Webhook v1 (n8n's isolate path)",
			short: 'Webhook v1',
			url: inst.webhookUrl(F.BENCH_ISOLATE_PATH),
			sink: 'bench-isolate',
			workflowId: workflows[1].id,
		},
		{
			key: 'diy',
			label: 'do-it-yourself (Webhook raw body + Crypto + IF)',
			short: 'do-it-yourself',
			url: inst.webhookUrl(F.BENCH_DIY_PATH),
			sink: 'bench-diy',
			workflowId: workflows[2].id,
		},
		{
			key: 'plain',
			label: 'n8n Webhook v2, static (no isolate)',
			short: 'static Webhook v2',
			url: inst.webhookUrl(F.BENCH_PLAIN_PATH),
			sink: 'bench-plain',
			workflowId: workflows[3].id,
		},
		{
			key: 'empty',
			label: 'empty community webhook node (answers 200, emits {})',
			short: "empty community webhook node (n8n's floor)",
			url: inst.webhookUrl(`${F.uuidFrom('bench-empty')}/${BENCH_EMPTY_PATH}`),
			sink: 'bench-empty',
			workflowId: workflows[4].id,
		},
	].filter((s) => !ONLY_SIDES || ONLY_SIDES.includes(s.key));
	const side = (key) => sides.find((s) => s.key === key);
	const headlineKey = headlineOf(mode);
	// n8n registers plain webhooks in the background after start-up: wait until each answers.
	for (const s of sides.filter((x) => x.key !== 'trigger'))
		await H.waitFor(
			`${s.label} to be active`,
			async () => (await post(s.url, '{}', {})).status === 200,
			{ timeoutMs: 60000 },
		);
	const sign = (body) => sandbox.signWebhook(body);
	const sinkOf = (s) => () => (sandbox.sinks && sandbox.sinks[s.sink]) || [];

	const result = {
		engine,
		env,
		lazyAcquire: mode.lazy,
		triggerVersion: workflows[0].nodes[0].typeVersion,
		n8n: H.N8N_VERSION,
		node: host.nodeVersion,
		cores: require('node:os').cpus().length,
		requests: REQUESTS,
		rounds: ROUNDS,
		roundsRequested: ROUND_PLAN.requested,
		concurrency: CONCURRENCY,
		order: [],
		sides: {},
	};
	for (const s of sides) result.sides[s.key] = { rounds: [] };
	const n8nCpu = () => H.processCpuMs(inst.procs.main.pid);
	await P.run(`${modeName(mode)}: deliveries: warm-up`, async () => {
		for (const s of sides) await blast(s.url, eventBodies(WARMUP, userId), sign, sinkOf(s));
	});
	await P.run(
		`${modeName(mode)}: deliveries: ${ROUNDS} rounds x ${REQUESTS} per side`,
		async () => {
			for (let r = 0; r < ROUNDS; r++) {
				// The same signed bodies go to every side of a round. n8n slows through a run (its
				// execution history grows), so the trigger and the headline side run back to back, each
				// first in every other round, and the other sides rotate around them (pairing.js).
				const bodies = eventBodies(REQUESTS, userId);
				const order = roundOrder(
					sides.map((s) => s.key),
					r,
					['trigger', headlineKey],
				);
				result.order.push(order);
				for (const [slot, key] of order.entries()) {
					const s = side(key);
					const m = await blast(s.url, bodies, sign, sinkOf(s), n8nCpu);
					result.sides[key].rounds.push(Object.assign({ round: r, slot }, m));
					H.log(
						`${tag} round ${r + 1} ${key}: ${m.perSecond.toFixed(1)} processed/s (${m.acceptedPerSecond.toFixed(1)} accepted/s), n8n CPU ${m.cpuMsPerRun.toFixed(1)} ms/run, ${m.failures} failures`,
					);
				}
			}
		},
	);

	// With BENCH_SIDES (a profile of some sides) only the deliveries are measured.
	const full = !ONLY_SIDES;
	// Forged deliveries (signed with another secret): the trigger answers 401 and starts nothing; the
	// DIY workflow answers 200, runs, and stops at the IF. Executions are counted in n8n's database
	// (the benchmark workflows save their executions).
	const api = await rest.session(inst.port);
	result.forged = {};
	await P.run(`${modeName(mode)}: forged deliveries: ${FORGED} per side`, async () => {
		for (const s of full ? [side('trigger'), side('diy')] : []) {
			const before = {
				executions: await api.executionCount(s.workflowId),
				sink: sinkOf(s)().length,
			};
			const statuses = {};
			for (const body of eventBodies(FORGED, userId)) {
				const r = await post(s.url, body, {
					'x-platform-webhooks-signature':
						'sha256=' +
						crypto.createHmac('sha256', 'not-the-consumer-secret').update(body).digest('base64'),
				});
				statuses[r.status] = (statuses[r.status] || 0) + 1;
			}
			// Runs started by the forged deliveries finish after their answer: wait for the count to settle.
			let executions = 0;
			let last = -1;
			for (let stable = 0, deadline = Date.now() + 120000; stable < 4 && Date.now() < deadline; ) {
				await new Promise((r) => setTimeout(r, 500));
				executions = (await api.executionCount(s.workflowId)) - before.executions;
				stable = executions === last ? stable + 1 : 0;
				last = executions;
			}
			result.forged[s.key] = {
				sent: FORGED,
				statuses,
				executions,
				reachedSink: sinkOf(s)().length - before.sink,
			};
		}
	});

	result.crc = {};
	const crcSides = full ? [side('trigger'), side('diy'), side('isolate')] : [];
	const crcOptions = (s) => ({ statusOnly: s.key === 'isolate' });
	await P.run(`${modeName(mode)}: CRC idle: ${CRC_REQUESTS} per side`, async () => {
		for (const s of crcSides)
			result.crc[`${s.key}:idle`] = await crcRun(s.url, CRC_REQUESTS, sign, crcOptions(s));
	});
	await P.run(
		`${modeName(mode)}: CRC with ${CRC_INFLIGHT} deliveries in flight: ${CRC_REQUESTS} per side`,
		async () => {
			for (const s of crcSides) {
				// Its own connection pool, so that the CRC requests never queue behind the deliveries.
				const loadAgent = new http.Agent({ keepAlive: true, maxSockets: CRC_INFLIGHT });
				let done = false;
				const load = blastWith(
					s.url,
					eventBodies(Math.max(CRC_REQUESTS * CRC_INFLIGHT * 4, 1000), userId),
					sign,
					sinkOf(s),
					{ concurrency: CRC_INFLIGHT, via: loadAgent, stop: () => done },
				);
				await new Promise((r) => setTimeout(r, 1000));
				const crc = await crcRun(
					s.url,
					CRC_REQUESTS,
					sign,
					Object.assign(crcOptions(s), { seconds: CRC_LOAD_SECONDS }),
				);
				done = true;
				const m = await load;
				loadAgent.destroy();
				result.crc[`${s.key}:load`] = Object.assign(crc, {
					loadDeliveries: m.runs,
					loadFailures: m.failures,
					loadStillRunning: m.stillRunning,
				});
			}
		},
	);

	// A side's own figures: medians of its rounds (one round disturbed by another process on the
	// machine moves them least).
	const of = (rows, k) => median(rows.map((r) => r[k]));
	for (const s of sides) {
		const x = result.sides[s.key];
		x.per_second = of(x.rounds, 'perSecond');
		x.accepted_per_second = of(x.rounds, 'acceptedPerSecond');
		x.cpu_ms_per_run = of(x.rounds, 'cpuMsPerRun');
		x.failures = x.rounds.reduce((a, r) => a + r.failures, 0);
	}
	// Ratios: round by round, trigger ÷ side, then the median of those (pairing.js).
	const perRound = (key) => result.sides[key].rounds.map((m) => m.perSecond);
	result.ratios = {};
	if (result.sides.trigger)
		for (const s of sides.filter((x) => x.key !== 'trigger'))
			result.ratios[s.key] = pairedRatio(perRound('trigger'), perRound(s.key));
	const headlineRatio = result.ratios[headlineKey] || { perRound: [], median: NaN };
	result.headline = {
		side: headlineKey,
		label: side(headlineKey) ? side(headlineKey).short : headlineKey,
		ratio: headlineRatio.median,
		perRound: headlineRatio.perRound,
		target: TARGET,
		met: headlineRatio.median >= TARGET,
	};
	result.crcWrong = Object.values(result.crc).reduce((a, c) => a + c.wrong, 0);
	const loadFailures = Object.values(result.crc).reduce((a, c) => a + (c.loadFailures || 0), 0);
	result.forgedLeaks =
		Object.values(result.forged).reduce((a, f) => a + f.reachedSink, 0) +
		((result.forged.trigger && result.forged.trigger.executions) || 0);
	result.failures = sides.reduce((a, s) => a + result.sides[s.key].failures, 0) + loadFailures;
	result.failed = result.failures > 0 || result.crcWrong > 0 || result.forgedLeaks > 0;

	const outDir = path.join(H.ROOT, 'bench', 'results');
	fs.mkdirSync(outDir, { recursive: true });
	const file = path.join(
		outDir,
		`trigger-${new Date().toISOString().replace(/[:.]/g, '-')}${mode.lazy ? '-lazy' : ''}.json`,
	);
	fs.writeFileSync(file, JSON.stringify(result, null, 2));
	const roles = {
		trigger: '',
		plain: 'upper line',
		empty: "n8n's floor for any community webhook node",
	};
	const ratioText = (key) =>
		result.ratios[key] ? R.fmt(result.ratios[key].median, 2) : 'not measured';
	const rounds = (key, k, digits) =>
		result.sides[key].rounds.map((m) => R.fmt(m[k], digits)).join(' / ');
	const h = result.headline;
	const headlineLine = `Headline: trigger ÷ ${h.label} ${R.fmt(h.ratio, 2)} (median of the rounds' ratios ${h.perRound.map((x) => R.fmt(x, 2)).join(' / ')}); target trigger ÷ ${h.label} ${verdict(h.ratio)}.`;
	R.table(
		`Deliveries, ${engine} (n8n ${result.n8n}, Platform Trigger version ${result.triggerVersion}, ${result.cores} cores, ${REQUESTS} x ${ROUNDS} rounds per side${ROUND_PLAN.roundedUp ? ` (BENCH_ROUNDS=${ROUND_PLAN.requested} rounded up to even)` : ''}, ${CONCURRENCY} in flight; the trigger and ${h.label} back to back in every round, each first in every other round)`,
		[
			'workflow',
			'runs finished/s: median (each round)',
			'accepted/s',
			'trigger ÷ this: median of the rounds (each round)',
			'target',
			'n8n CPU ms per run',
			'failures',
		],
		sides.map((s) => {
			const x = result.sides[s.key];
			const q = result.ratios[s.key];
			const ratio =
				s.key === 'trigger' || !q
					? ''
					: `${R.fmt(q.median, 2)} (${q.perRound.map((v) => R.fmt(v, 2)).join(' / ')})`;
			const target =
				s.key === 'isolate' || s.key === 'diy'
					? `trigger ÷ ${s.short} ${verdict(q ? q.median : NaN)}${s.key === headlineKey ? ' (headline)' : ''}`
					: roles[s.key];
			return [
				s.label,
				`${R.fmt(x.per_second)} (${rounds(s.key, 'perSecond')})`,
				R.fmt(x.accepted_per_second),
				ratio,
				target,
				R.fmt(x.cpu_ms_per_run),
				x.failures,
			];
		}),
		[
			headlineLine,
			`Runs/s: trigger ÷ Webhook v1 ${ratioText('isolate')}, trigger ÷ do-it-yourself ${ratioText('diy')}, trigger ÷ empty community webhook node (n8n's floor) ${ratioText('empty')}; each the median over rounds of (trigger's runs/s in the round ÷ the side's in the same round).`,
			`Order of the rounds: ${result.order.map((o) => o.join(', ')).join(' | ')}.`,
			"n8n's own cost: the isolate-path Webhook line is what n8n spends on any webhook node outside its static Webhook (isolate per call); the empty community node line is the same for a community node that does nothing (answers 200, emits {}); the plain static Webhook line is n8n's cost without the isolate.",
			"The trigger below the empty-node line is the trigger's own cost.",
			"n8n CPU ms per run: CPU time of n8n's process (every thread: isolates, garbage collector, database) while the round ran, divided by its runs; steadier than runs/s on a shared machine.",
		],
	);
	H.log(`${engine}: ${headlineLine}`);
	if (full)
		R.table(
			`Forged deliveries, ${engine} (${FORGED} per side, signed with another secret)`,
			['workflow', 'answers', 'executions started', 'reached the sink'],
			[side('trigger'), side('diy')].map((s) => {
				const f = result.forged[s.key];
				return [
					s.label,
					Object.entries(f.statuses)
						.map(([k, v]) => `${v}x ${k}`)
						.join(', '),
					f.executions,
					f.reachedSink,
				];
			}),
			[
				'The DIY workflow runs for every forged delivery and stops at the IF; the trigger answers 401 and starts nothing.',
			],
		);
	if (full)
		R.table(
			`CRC answers, ${engine} (${CRC_REQUESTS} per row, under load at most ${CRC_LOAD_SECONDS} s of checks; the service allows ${CRC_DEADLINE_MS} ms)`,
			[
				'workflow',
				'condition',
				'p50 ms',
				'p99 ms',
				'max ms',
				'margin to 3 s at p99',
				'wrong answers',
			],
			Object.entries(result.crc).map(([k, c]) => {
				const [key, cond] = k.split(':');
				return [
					key === 'isolate'
						? `${side(key).label}, GET answered on receipt (not a CRC: n8n's own floor)`
						: side(key).label,
					cond === 'idle'
						? 'idle'
						: `${CRC_INFLIGHT} deliveries in flight (${c.loadDeliveries} ran, ${c.loadFailures} failed${c.loadStillRunning ? `, ${c.loadStillRunning} still running after ${DRAIN_MAX_MS / 1000} s` : ''})`,
					R.fmt(c.p50_ms),
					R.fmt(c.p99_ms),
					R.fmt(c.max_ms),
					`${R.fmt(CRC_DEADLINE_MS - c.p99_ms, 0)} ms`,
					`${c.wrong} of ${c.requests}`,
				];
			}),
		);
	console.log(`raw figures: ${path.relative(H.ROOT, file)}`);
	return result;
}

module.exports = { main };
if (require.main === module) main().then(() => process.exit(process.exitCode || 0));
