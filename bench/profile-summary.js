#!/usr/bin/env node
'use strict';
/**
 * Where the CPU time of an n8n process goes, from a V8 CPU profile (`--cpu-prof`): every sample is put
 * in the first bucket below that matches any frame of its stack (so a database read made while reading
 * a credential counts as the credential read), and the time is divided by the deliveries handled.
 *
 *   node bench/profile-summary.js <n8n.cpuprofile> <bench/results/trigger-*.json> [side ...]
 *
 * Only the samples inside each side's measured rounds count (the results file holds their windows on
 * the monotonic clock V8's profiles use), so n8n's start-up and the warm-up are left out.
 *
 * A CPU profile sees synchronous stacks only: work resumed after an `await` (a database answer) is
 * counted where it resumes, not where it was asked for. Used by the profile runs described in the
 * README (bench/trigger.js with BENCH_SIDES and --cpu-prof).
 */
const fs = require('node:fs');

/** Buckets in priority order: [label, test of one call frame]. */
const BUCKETS = [
	[
		'credential read and decryption',
		(f) =>
			/^(getCredentials|getDecrypted|getCredentialsEntity|applyDefaultsAndOverwrites)$/.test(
				f.functionName,
			) || /credentials-helper|[\\/]credentials\.js$/.test(f.url),
	],
	['recovery check', (f) => f.functionName === 'recoverAfterRestart'],
	[
		'static data load and save',
		(f) =>
			/^(getWorkflowStaticData|saveStaticData|saveStaticDataById)$/.test(f.functionName) ||
			/static-data/.test(f.url),
	],
	['parameter reads', (f) => /^(getNodeParameter|getParameterValue)$/.test(f.functionName)],
	[
		'expression isolate (create, acquire, dispose, calls)',
		(f) =>
			/isolated-vm|isolate-pool|expression-evaluator|vm-evaluator|[\\/]isolate/.test(f.url) ||
			/^(acquireIsolate|releaseIsolate)$/.test(f.functionName),
	],
	[
		'this package (signature, normalising, duplicate check)',
		(f) => /n8n-nodes-platform[\\/]dist/.test(f.url),
	],
	[
		'execution data: save and database',
		(f) =>
			/execution\.repository|execution-persistence|execution-lifecycle|save-execution|typeorm|sqlite/i.test(
				f.url,
			),
	],
	['sink node (HTTP Request)', (f) => /HttpRequest/.test(f.url)],
	[
		'webhook phase, other (request, workflow load)',
		(f) => /webhooks[\\/]|webhook-helpers|webhook-context/.test(f.url),
	],
	[
		'run phase, other (workflow execute)',
		(f) => /workflow-execute|workflow-runner|execution-engine/.test(f.url),
	],
	['garbage collector', (f) => f.functionName === '(garbage collector)'],
	['idle', (f) => f.functionName === '(idle)'],
];

/** CPU ms per bucket of the samples that fall in one of `windows` ([start, end] monotonic µs). */
function summarize(profile, windows) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
	const bucketOf = new Map();
	const classify = (id) => {
		if (bucketOf.has(id)) return bucketOf.get(id);
		const frames = [];
		for (let x = id; x !== undefined; x = parent.get(x)) frames.push(byId.get(x).callFrame);
		let found = 'other';
		for (const [label, test] of BUCKETS)
			if (frames.some(test)) {
				found = label;
				break;
			}
		bucketOf.set(id, found);
		return found;
	};
	const ms = {};
	let at = profile.startTime;
	profile.samples.forEach((id, i) => {
		at += profile.timeDeltas[i] || 0;
		if (!windows.some(([a, b]) => at >= a && at <= b)) return;
		const b = classify(id);
		ms[b] = (ms[b] || 0) + (profile.timeDeltas[i] || 0) / 1000;
	});
	return ms;
}

/**
 * node bench/profile-summary.js <profile.cpuprofile> <bench/results/trigger-*.json> [side ...]
 * The profile of n8n's main process during a bench/trigger.js run; the run's results file names each
 * side's rounds (their monotonic time windows and the runs they finished).
 */
function main() {
	const [profileFile, resultsFile, ...only] = process.argv.slice(2);
	if (!profileFile || !resultsFile) {
		console.error(
			'usage: node bench/profile-summary.js <n8n.cpuprofile> <bench/results/trigger-*.json> [side ...]',
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
			const ms = summarize(
				profile,
				rounds.map((r) => r.monoUs),
			);
			return { key, runs, ms, seconds: rounds.reduce((a, r) => a + r.seconds, 0) };
		});
	const labels = [...BUCKETS.map((b) => b[0]), 'other'];
	const line = (cells) => `| ${cells.join(' | ')} |`;
	console.log(line(['CPU ms per delivery (run finished)', ...sides.map((s) => s.key)]));
	console.log(line(['---', ...sides.map(() => '---:')]));
	for (const l of labels)
		console.log(line([l, ...sides.map((s) => ((s.ms[l] || 0) / s.runs).toFixed(2))]));
	const busy = (s) =>
		Object.entries(s.ms)
			.filter(([k]) => k !== 'idle')
			.reduce((a, [, v]) => a + v, 0);
	console.log(
		line(['**busy (all but idle)**', ...sides.map((s) => (busy(s) / s.runs).toFixed(2))]),
	);
	console.log(line(['runs profiled', ...sides.map((s) => s.runs)]));
	console.log(
		line(['wall ms per run', ...sides.map((s) => ((s.seconds * 1000) / s.runs).toFixed(2))]),
	);
}

main();
