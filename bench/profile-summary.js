#!/usr/bin/env node
'use strict';
/**
 * Where the CPU time of an n8n process goes, from a V8 CPU profile (`--cpu-prof`): every sample is put
 * in the first bucket below whose test matches its stack (so a database read made while reading a
 * credential counts as the credential read), and the time is divided by the deliveries handled.
 *
 *   node bench/profile-summary.js <n8n.cpuprofile> <bench/results/trigger-*.json> [--self N] [side ...]
 *
 * Only the samples inside each side's measured rounds count (the results file holds their windows on
 * the monotonic clock V8's profiles use), so n8n's start-up and the warm-up are left out. With two
 * sides a third column gives their difference (first minus second). `--self N` also prints the N
 * functions whose own (self) time per delivery differs most between the sides.
 *
 * A CPU profile sees n8n's main thread only, and synchronous stacks only: work resumed after an
 * `await` (a database answer) is counted where it resumes, not where it was asked for, and work on
 * other threads (V8's garbage collector helpers, isolates' background compilation, the event log
 * writer) is missing. The last rows give the bench's own figure for the whole process (every thread,
 * from /proc) beside it. Used by the profile runs described in the README (bench/trigger.js with
 * BENCH_SIDES and --cpu-prof).
 */
const fs = require('node:fs');

const fnIs = (re) => (f) => re.test(f.functionName);
const urlHas = (re) => (f) => re.test(f.url);
const any =
	(...tests) =>
	(frames) =>
		frames.some((f) => tests.some((t) => t(f)));
const all =
	(...checks) =>
	(frames) =>
		checks.every((c) => c(frames));
const PKG = /n8n-nodes-platform[\\/]dist[\\/]/;
const inPkg = (re) => (f) => PKG.test(f.url) && re.test(f.url);

/**
 * Buckets in priority order: [label, test of the sample's stack (its call frames, leaf first)]. The
 * expression isolate comes first: n8n takes one lazily inside whatever first evaluates an expression
 * (a node's parameter read, or n8n's own check below), so without these rows its cost would be counted
 * as that node's.
 */
const BUCKETS = [
	[
		// n8n's webhook helper evaluates `={{$parameter["options"]["binaryData"]}}` for the start node of
		// every webhook call when that node's typeVersion is 1, whatever its type (a check meant for its own
		// Webhook v1); with lazy acquire that expression takes (and usually cold-starts) an isolate.
		'n8n: `options.binaryData` expression for a typeVersion 1 start node (webhook call; isolate included)',
		all(any(fnIs(/^parseRequestBody$/)), any(fnIs(/^getSimpleParameterValue$/))),
	],
	[
		'n8n: expression isolate, synchronous cold start (lazy acquire, pool empty)',
		any(fnIs(/^(acquireBridgeSync|initializeSync)$/)),
	],
	[
		'n8n: expression isolate, release and dispose',
		any(
			fnIs(/^(releaseIsolate|acquireIsolate)$/),
			(f) => f.functionName === 'dispose' && /expression-runtime/.test(f.url),
		),
	],
	[
		'n8n: expression isolate, pool (acquire, replenish, async start)',
		any(
			urlHas(/isolate-pool/),
			fnIs(/^(replenish|createBridge|ExpressionEvaluator\.createBridge)$/),
		),
	],
	[
		'n8n: expression evaluation (isolate calls, transform)',
		any(urlHas(/expression-runtime|isolated-vm/), fnIs(/^renderExpression$/)),
	],
	[
		'credential read and decryption',
		any(
			fnIs(/^(getCredentials|getDecrypted|getCredentialsEntity|applyDefaultsAndOverwrites)$/),
			urlHas(/credentials-helper|[\\/]credentials\.js$/),
		),
	],
	['recovery check', any(fnIs(/^recoverAfterRestart$/))],
	[
		'this package: signature (secretCache.ts kept secret, signature.ts HMAC)',
		any(inPkg(/signature\.js$|secretCache\.js$/)),
	],
	[
		'this package: duplicate record (state.ts claimNewIds/idHash, recordStarted/persistClaimed/encodeRecord)',
		any(inPkg(/state\.js$/)),
	],
	[
		'this package: the rest (receive.ts body JSON.parse and checks, events.ts, outputs.ts)',
		any((f) => PKG.test(f.url)),
	],
	[
		'static data load and save (synchronous part)',
		any(
			fnIs(/^(getWorkflowStaticData|saveStaticData|saveStaticDataById|getStaticDataById)$/),
			urlHas(/static-data/),
		),
	],
	[
		'workflow load and Workflow objects (published version for the webhook call, new Workflow per call and run)',
		any(
			fnIs(
				/^(loadWebhookExecutionData|loadFromPublishedVersion|getPublishedWorkflowData|Workflow)$/,
			),
		),
	],
	[
		'execution: create, update, save (persistence, lifecycle hooks, statistics)',
		any(
			urlHas(
				/execution-persistence|execution-lifecycle|executions[\\/]|execution\.repository|save-execution|workflow-statistics|active-executions/,
			),
		),
	],
	[
		'event bus and log streaming (events per node and per run)',
		any(urlHas(/eventbus|[\\/]events[\\/]|typed-emitter/)),
	],
	['downstream nodes: Crypto and IF', any(urlHas(/nodes[\\/](Crypto|If)[\\/]/))],
	['sink node (HTTP Request, its own work)', any(urlHas(/HttpRequest/))],
	[
		'database driver and ORM (answers, resumed at the top of a stack)',
		any(urlHas(/typeorm|sqlite|[\\/]pg[\\/]|pg-protocol/)),
	],
	[
		'webhook request handling (HTTP server, routing, body, answer)',
		any(
			urlHas(
				/webhooks[\\/]|webhook-|middlewares|express|body-parser|raw-body|router|node:_http_server|node:_http_common/,
			),
		),
	],
	[
		'run phase, other (workflow execute, runner)',
		any(urlHas(/workflow-execute|workflow-runner|execution-engine|n8n-core[\\/]/)),
	],
	['garbage collector', any(fnIs(/^\(garbage collector\)$/))],
	['(program): V8 and native code outside JavaScript', any(fnIs(/^\(program\)$/))],
	['idle', any(fnIs(/^\(idle\)$/))],
];

/** Whether a sample at `at` (monotonic µs) falls in one of `windows`. */
const inside = (windows, at) => windows.some(([a, b]) => at >= a && at <= b);

/** CPU ms per bucket, and per function (self time), of the samples that fall in one of `windows`. */
function summarize(profile, windows) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
	const bucketOf = new Map();
	const classify = (id) => {
		if (bucketOf.has(id)) return bucketOf.get(id);
		const frames = [];
		for (let x = id; x !== undefined; x = parent.get(x)) frames.push(byId.get(x).callFrame);
		const found = (BUCKETS.find(([, test]) => test(frames)) || ['other'])[0];
		bucketOf.set(id, found);
		return found;
	};
	const ms = {};
	const self = {};
	let at = profile.startTime;
	profile.samples.forEach((id, i) => {
		const dt = (profile.timeDeltas[i] || 0) / 1000;
		at += profile.timeDeltas[i] || 0;
		if (!inside(windows, at)) return;
		const b = classify(id);
		ms[b] = (ms[b] || 0) + dt;
		const f = byId.get(id).callFrame;
		const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules[\\/]/, '')}:${f.lineNumber + 1}`;
		self[name] = (self[name] || 0) + dt;
	});
	return { ms, self };
}

/**
 * node bench/profile-summary.js <profile.cpuprofile> <bench/results/trigger-*.json> [--self N] [side ...]
 * The profile of n8n's main process during a bench/trigger.js run; the run's results file names each
 * side's rounds (their monotonic time windows, the runs they finished and n8n's CPU per run).
 */
function main() {
	const args = process.argv.slice(2);
	const selfAt = args.indexOf('--self');
	const selfTop = selfAt >= 0 ? Number(args.splice(selfAt, 2)[1]) : 0;
	const [profileFile, resultsFile, ...only] = args;
	if (!profileFile || !resultsFile) {
		console.error(
			'usage: node bench/profile-summary.js <n8n.cpuprofile> <bench/results/trigger-*.json> [--self N] [side ...]',
		);
		process.exit(2);
	}
	const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
	const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
	const sides = Object.entries(results.sides)
		.filter(([key]) => !only.length || only.includes(key))
		.map(([key, side]) => {
			const rounds = side.rounds.filter((r) => r.monoUs);
			const runs = rounds.reduce((a, r) => a + (r.runs || 0), 0);
			const { ms, self } = summarize(
				profile,
				rounds.map((r) => r.monoUs),
			);
			const cpu = rounds.map((r) => r.cpuMsPerRun);
			return {
				key,
				runs,
				ms,
				self,
				seconds: rounds.reduce((a, r) => a + r.seconds, 0),
				// The bench's own figure: n8n's whole process (every thread) per run.
				processMedian: side.cpu_ms_per_run ?? Number.NaN,
				processMean: rounds.reduce((a, r) => a + r.cpuMsPerRun * r.runs, 0) / runs,
				processRounds: cpu,
			};
		});
	const pair = sides.length === 2;
	const line = (cells) => `| ${cells.join(' | ')} |`;
	const row = (label, values, digits = 2) =>
		line([
			label,
			...values.map((v) => v.toFixed(digits)),
			...(pair ? [(values[0] - values[1]).toFixed(digits)] : []),
		]);
	const per = (s, v) => v / s.runs;
	const keys = sides.map((s) => s.key);
	console.log(
		line([
			'CPU ms per delivery (run finished), n8n main thread',
			...keys,
			...(pair ? [`${keys[0]} − ${keys[1]}`] : []),
		]),
	);
	console.log(line(['---', ...sides.map(() => '---:'), ...(pair ? ['---:'] : [])]));
	const labels = [...BUCKETS.map((b) => b[0]), 'other'];
	for (const l of labels)
		console.log(
			row(
				l,
				sides.map((s) => per(s, s.ms[l] || 0)),
			),
		);
	const busy = (s) =>
		Object.entries(s.ms)
			.filter(([k]) => k !== 'idle')
			.reduce((a, [, v]) => a + v, 0);
	console.log(
		row(
			'**main thread busy (all but idle)**',
			sides.map((s) => per(s, busy(s))),
		),
	);
	console.log(
		row(
			'**n8n process, every thread (bench figure, mean over rounds)**',
			sides.map((s) => s.processMean),
		),
	);
	console.log(
		row(
			'n8n process, every thread (bench figure, median of rounds)',
			sides.map((s) => s.processMedian),
		),
	);
	console.log(
		row(
			'other threads (process mean − main thread busy)',
			sides.map((s) => s.processMean - per(s, busy(s))),
		),
	);
	console.log(line(['runs profiled', ...sides.map((s) => s.runs), ...(pair ? [''] : [])]));
	console.log(
		row(
			'wall ms per run',
			sides.map((s) => (s.seconds * 1000) / s.runs),
		),
	);
	if (!selfTop) return;
	const names = new Set(sides.flatMap((s) => Object.keys(s.self)));
	const rows = [...names].map((n) => [n, sides.map((s) => per(s, s.self[n] || 0))]);
	const weight = ([, v]) => (pair ? Math.abs(v[0] - v[1]) : Math.max(...v));
	rows.sort((a, b) => weight(b) - weight(a));
	console.log('');
	console.log(
		line([
			`self time, ms per delivery (top ${selfTop}${pair ? ' by difference' : ''})`,
			...keys,
			...(pair ? [`${keys[0]} − ${keys[1]}`] : []),
		]),
	);
	console.log(line(['---', ...sides.map(() => '---:'), ...(pair ? ['---:'] : [])]));
	for (const [n, v] of rows.slice(0, selfTop)) console.log(row(`\`${n}\``, v));
}

main();
