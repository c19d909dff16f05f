#!/usr/bin/env node
'use strict';
/**
 * `node bench/stream-core.js`: what the Activity Stream Trigger's own code costs per event, and the
 * static data n8n writes per event, at 1,500 and at 15,000 remembered ids (issue 53). Unit level: the
 * trigger's core (nodes/triggers/stream/streamCore.ts, compiled here from its source with TypeScript's
 * transpiler, so no build is needed) driven the way the shell (activityStream.ts) drives it for one
 * event on a live connection: the event's claim, the save of the record into the static data (n8n's
 * change-tracking proxy, ObservableObject, as the trigger gets it), and the run's start. The full
 * stream bench in a real n8n is not this.
 *
 * The ids remembered follow from the event rate: a simulated live connection at BENCH_STREAM_RATES
 * (events per second, default `6.5,65`), with the core's checkpoint every two minutes of simulated time
 * (a bounded catch-up that ends), warmed up for 10 simulated minutes; the ids remembered while
 * measuring are printed (about 1,500 and 15,000 at the default rates `6.5,65`).
 *
 * Paired rounds (bench/pairing.js): BENCH_ROUNDS (default 6, rounded up to even) rounds, each measuring
 * both sizes back to back, the smaller first in every other round, each size timed over
 * BENCH_STREAM_SECONDS (default 300) simulated seconds of events (so every measure holds two
 * checkpoints, where the record drops what the position left behind). The figures are medians over
 * rounds of (CPU per event at the larger size ÷ at the smaller size in the same round), the issue's
 * goal at most 1.5 (the same cost, O(1)): for the typical event (the median of batches of 50 events:
 * a batch that the machine's other work preempted is an outlier) and for the mean (every event's
 * share, the checkpoints' trims included, and any preemption).
 *
 * Static data per event: the JSON n8n writes when the run ends (JSON.stringify of the trigger's static
 * data, what n8n's saveStaticDataById stores), measured on every 50th event. **n8n's own cost** per
 * run, printed apart: that JSON.stringify (n8n also walks the static data when it wraps it for each
 * run, in n8n-workflow's Workflow constructor; not measured here).
 *
 * BENCH_BASE=<git revision> measures that revision's core too, in the same rounds (the figures before
 * a change). Results: the table, printed and appended to bench/results/<date>.md (bench/report.js),
 * and the raw figures in bench/results/stream-core-<time>.json.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const ts = require('typescript');
const { ObservableObject } = require('n8n-workflow');

const { evenRounds, median, pairedRatio } = require('./pairing');
const R = require('./report');

const ROOT = path.join(__dirname, '..');
const CORE = 'nodes/triggers/stream/streamCore.ts';
const ROUND_PLAN = evenRounds(process.env.BENCH_ROUNDS || 6);
const ROUNDS = ROUND_PLAN.rounds;
const SECONDS = Number(process.env.BENCH_STREAM_SECONDS || 300);
const RATES = String(process.env.BENCH_STREAM_RATES || '6.5,65')
	.split(',')
	.map(Number);
const BASE = process.env.BENCH_BASE;
const BYTES_EVERY = 50;
const BATCH = 50;
const MIN = 60_000;
const T0 = Date.parse('2026-11-29T00:00:00.000Z');

/** The core module compiled from `source` (its only imports are types). */
function loadCore(source, label) {
	const js = ts.transpileModule(source, {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
		fileName: label,
	}).outputText;
	const mod = { exports: {} };
	new Function('module', 'exports', 'require', js)(mod, mod.exports, require);
	return mod.exports;
}

const versions = [
	{ label: 'this tree', core: loadCore(fs.readFileSync(path.join(ROOT, CORE), 'utf8'), CORE) },
];
if (BASE) {
	const source = execFileSync('git', ['show', `${BASE}:${CORE}`], { cwd: ROOT, encoding: 'utf8' });
	versions.push({ label: `base ${BASE}`, core: loadCore(source, `${BASE}:${CORE}`) });
}

/**
 * One size: a core warmed up on a live connection at `rate` events/s, then SECONDS of events timed the
 * way the shell handles each. Returns CPU µs per event, ids remembered, bytes of static data per event
 * and n8n's own µs per run (wrap + stringify).
 */
function measure({ StreamCore }, rate, seed) {
	const step = 1000 / rate;
	let now = T0;
	let n = 0;
	const core = new StreamCore(undefined, now);
	// The static data object the trigger writes into, as n8n hands it over (its proxy).
	const top = ObservableObject.create({});
	top['node:Activity Stream Trigger'] = ObservableObject.create({}, top);
	const staticData = top['node:Activity Stream Trigger'];
	const save = () => {
		delete staticData.streamEventAt;
		Object.assign(staticData, core.saved());
	};
	const connect = () => {
		const query = core.query(now);
		core.opened(now, query);
		if (query.end_time !== undefined) {
			// The bounded catch-up re-sends what the live connection carried (dropped) and ends.
			core.ended();
			const live = core.query(now);
			core.opened(now, live);
		}
	};
	connect();
	const next = () => `${seed}${String(1_000_000_000 + n++)}`;
	const tick = () => {
		now += step;
		if (core.checkpointDue(now)) {
			core.closed();
			connect();
		}
	};
	// Warm-up: 10 simulated minutes (checkpoints included), without the per-event save.
	const warm = Math.ceil((10 * MIN) / step);
	for (let i = 0; i < warm; i++) {
		tick();
		const id = next();
		if (core.event(id, now) === 'run') core.started(id);
	}
	save();
	let cpu = 0n;
	let remembered = 0;
	let bytes = 0;
	let samples = 0;
	let n8nNs = 0n;
	const EVENTS = Math.round(rate * SECONDS);
	/** µs per event of each batch of BATCH events (checkpoints included where they fall). */
	const batches = [];
	let batchNs = 0n;
	for (let i = 0; i < EVENTS; i++) {
		const t = process.hrtime.bigint();
		tick();
		const id = next();
		if (core.event(id, now) === 'run') {
			save();
			core.started(id);
			save();
		}
		const spent = process.hrtime.bigint() - t;
		cpu += spent;
		batchNs += spent;
		if ((i + 1) % BATCH === 0) {
			batches.push(Number(batchNs) / 1e3 / BATCH);
			batchNs = 0n;
		}
		if (i % BYTES_EVERY === 0) {
			const n0 = process.hrtime.bigint();
			// n8n at the run's end: the static data as JSON (what it stores).
			const json = JSON.stringify(top);
			n8nNs += process.hrtime.bigint() - n0;
			bytes += json.length;
			remembered += core.saved().handled.length;
			samples++;
		}
	}
	return {
		// The typical event: the median batch (a batch the machine's other work preempted is an outlier).
		cpuUsPerEvent: median(batches),
		// Every event's share, checkpoints and preemptions included.
		meanUsPerEvent: Number(cpu) / 1e3 / EVENTS,
		remembered: Math.round(remembered / samples),
		bytesPerEvent: Math.round(bytes / samples),
		n8nUsPerRun: Number(n8nNs) / 1e3 / samples,
		events: EVENTS,
	};
}

const results = versions.map((v) => ({ label: v.label, rounds: [] }));
const [small, large] = RATES;
for (let r = 0; r < ROUNDS; r++) {
	for (const [i, v] of versions.entries()) {
		const order = r % 2 ? [large, small] : [small, large];
		const round = {};
		for (const rate of order) round[rate] = measure(v.core, rate, `${r}${i}${rate}`);
		results[i].rounds.push(round);
	}
	process.stderr.write(`round ${r + 1}/${ROUNDS}\n`);
}

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const rows = [];
const summary = [];
for (const res of results) {
	const row = {};
	for (const rate of [small, large]) {
		const rounds = res.rounds.map((x) => x[rate]);
		row[rate] = {
			cpuUsPerEvent: median(rounds.map((x) => x.cpuUsPerEvent)),
			meanUsPerEvent: median(rounds.map((x) => x.meanUsPerEvent)),
			remembered: median(rounds.map((x) => x.remembered)),
			bytesPerEvent: median(rounds.map((x) => x.bytesPerEvent)),
			n8nUsPerRun: median(rounds.map((x) => x.n8nUsPerRun)),
		};
		const f = row[rate];
		rows.push([
			res.label,
			rate,
			f.remembered,
			fmt(f.cpuUsPerEvent, 2),
			fmt(f.meanUsPerEvent, 2),
			f.bytesPerEvent,
			`**${fmt(f.n8nUsPerRun)}**`,
		]);
	}
	const ratio = (key) =>
		pairedRatio(
			res.rounds.map((x) => x[large][key]),
			res.rounds.map((x) => x[small][key]),
		);
	summary.push({
		label: res.label,
		rows: row,
		cpuRatio: ratio('cpuUsPerEvent'),
		meanRatio: ratio('meanUsPerEvent'),
	});
}
const notes = [];
for (const s of summary)
	for (const [what, r] of [
		['typical', s.cpuRatio],
		['mean', s.meanRatio],
	])
		notes.push(
			`${s.label}: CPU per event (${what}) at ${s.rows[large].remembered} ids ÷ at ${s.rows[small].remembered} ids = ` +
				`${fmt(r.median, 2)} (rounds: ${r.perRound.map((x) => fmt(x, 2)).join(' / ')}; goal ≤ 1.5)`,
		);
R.table(
	`Activity Stream Trigger core, per event on a live connection: ${ROUNDS} paired rounds` +
		`${ROUND_PLAN.roundedUp ? ` (asked ${ROUND_PLAN.requested}, rounded up to even)` : ''}, ${SECONDS} simulated seconds per size and round`,
	[
		'core',
		'events/s',
		'ids in the record',
		'CPU µs/event, typical (median batch)',
		'CPU µs/event, mean (all)',
		'static data bytes/event',
		'**n8n µs/run: JSON.stringify**',
	],
	rows,
	notes,
);

const out = path.join(
	__dirname,
	'results',
	`stream-core-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
fs.writeFileSync(
	out,
	JSON.stringify(
		{
			command: `node bench/stream-core.js`,
			env: {
				BENCH_ROUNDS: ROUNDS,
				BENCH_STREAM_SECONDS: SECONDS,
				BENCH_STREAM_RATES: RATES.join(','),
				BENCH_BASE: BASE,
			},
			node: process.version,
			cpus: require('node:os').cpus().length,
			loadavg: require('node:os').loadavg(),
			at: new Date().toISOString(),
			summary,
			rounds: results,
		},
		null,
		'\t',
	) + '\n',
);
console.log(`\nraw figures: ${path.relative(ROOT, out)}`);
