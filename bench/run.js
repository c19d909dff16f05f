#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: every comparison, one after the other, each in its own process:
 *   - bench/trigger.js with n8n's default expression engine, which measures twice (its BENCH_LAZY=both:
 *     without, then with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true), then with N8N_EXPRESSION_ENGINE=legacy
 *     (once: that engine takes no isolate, so lazy acquire changes nothing): the Platform Trigger beside
 *     n8n's Webhook on the isolate path, the do-it-yourself workflow, the plain static Webhook and an
 *     empty community webhook node, in paired rounds; forged deliveries; CRC idle and under load;
 *   - bench/catalog-n8n.js: Ads Catalog push versus the HTTP Request node, memory and time at scale;
 *   - bench/catalog.js: the push engine alone against a local server (no n8n), clean and with faults;
 *   - bench/capacity.js: events/s and CRC p99 at full load, in regular mode and in the production
 *     topology on PostgreSQL (one webhook process with 1, 2 and 4 workers, two behind nginx), and
 *     2,000 deliveries each run once;
 *   - bench/stream-core.js: the Activity Stream Trigger's own CPU per event at about 1,500 and 15,000
 *     remembered ids, and the static data n8n writes per event (no n8n);
 *   - bench/stream.js: the Activity Stream Trigger beside the Platform Trigger (webhook) in one n8n on
 *     PostgreSQL, in paired rounds (runs/s, CPU, WAL and static data per event), then a soak.
 * Every table goes to one file, bench/results/<date>.md, and is printed.
 *
 * BENCH_QUICK=1 runs every comparison small (a few minutes; the figures only prove the harness). Any
 * size set in the environment wins over the quick defaults. BENCH_ONLY=<text> runs the pieces whose
 * label contains the text (BENCH_ONLY=lazy: the default-engine trigger run, both modes; add BENCH_LAZY=on
 * for the lazy-acquire mode alone).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const R = require('./report');

const QUICK = /^(1|true|yes)$/i.test(process.env.BENCH_QUICK || '');
const QUICK_SIZES = {
	// bench/trigger.js runs an even number of rounds (the pair alternates which goes first).
	BENCH_ROUNDS: '2',
	BENCH_REQUESTS: '40',
	BENCH_WARMUP: '5',
	BENCH_FORGED: '10',
	BENCH_CRC: '30',
	BENCH_COMPARE_PRODUCTS: '200',
	BENCH_SCALE_PRODUCTS: '1000,10000',
	BENCH_PRODUCTS: '1000',
	BENCH_STREAM_SECONDS: '30',
	BENCH_STREAM_EVENTS: '40',
	BENCH_SOAK_EVENTS: '200',
};
if (QUICK)
	for (const [k, v] of Object.entries(QUICK_SIZES))
		if (process.env[k] === undefined) process.env[k] = v;

// The trigger with n8n's default expression engine (vm: n8n acquires an isolate for every delivery to a
// webhook node that is not its own static Webhook node), without and with lazy acquire, and with
// N8N_EXPRESSION_ENGINE=legacy, which shows the nodes' own cost.
const runs = [
	{
		name: 'trigger.js',
		label:
			'trigger.js (n8n default expression engine, without and with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: lazy acquire)',
		env: {},
	},
	{
		name: 'trigger.js',
		label: 'trigger.js (N8N_EXPRESSION_ENGINE=legacy)',
		env: { BENCH_N8N_ENV: JSON.stringify({ N8N_EXPRESSION_ENGINE: 'legacy' }) },
	},
	{
		name: 'catalog-n8n.js',
		label: 'catalog-n8n.js (push vs HTTP Request, memory at scale)',
		env: {},
	},
	{ name: 'catalog.js', label: 'catalog.js (push engine alone)', env: {} },
	{
		name: 'capacity.js',
		label:
			'capacity.js (events/s and CRC p99: regular mode, queue mode on PostgreSQL with 1, 2, 4 workers and 2 webhook processes)',
		env: {},
	},
	{
		name: 'stream-core.js',
		label:
			'stream-core.js (Activity Stream Trigger core: CPU per event at 1,500 and 15,000 remembered ids, static data per event)',
		env: {},
	},
	{
		name: 'stream.js',
		label:
			'stream.js (Activity Stream Trigger beside the webhook trigger in n8n on PostgreSQL: runs/s, CPU, WAL and static data per event; soak)',
		env: {},
	},
].filter((r) => !process.env.BENCH_ONLY || r.label.includes(process.env.BENCH_ONLY));

const file = R.resultsFile();
const sizes = Object.keys(process.env)
	.filter((k) => /^BENCH_/.test(k) && k !== 'BENCH_RESULTS_FILE')
	.sort()
	.map((k) => `${k}=${process.env[k]}`);
R.append(
	`\n## npm run bench, ${new Date().toISOString()}\n\nMachine: ${os.cpus().length} cores (${os.cpus()[0] ? os.cpus()[0].model : 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(
			' ',
		)} at start.${QUICK ? ' **Quick mode: small sizes, figures prove the harness only.**' : ''}${sizes.length ? `\nSettings: ${sizes.join(' ')}` : ''}\n\n`,
);

let failed = false;
for (const { name, label, env } of runs) {
	const script = path.join(__dirname, name);
	if (!fs.existsSync(script)) {
		console.log(`bench: ${name} not present, skipped`);
		continue;
	}
	console.log(`\n===== bench/${label}`);
	const r = spawnSync(process.execPath, [script], {
		stdio: 'inherit',
		timeout: 120 * 60 * 1000,
		env: Object.assign({}, process.env, env),
	});
	if (r.status !== 0) {
		console.error(`bench/${name} failed (exit ${r.status}${r.signal ? ', ' + r.signal : ''})`);
		R.append(`**bench/${label} failed (exit ${r.status}${r.signal ? ', ' + r.signal : ''})**\n\n`);
		failed = true;
	}
}
console.log(`\nresults: ${path.relative(path.join(__dirname, '..'), file)}`);
process.exit(failed ? 1 : 0);
