#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: runs bench/trigger.js (Platform Trigger vs plain Webhook in a real n8n, CRC latency)
 * twice (n8n's default expression engine, then the legacy one) and bench/catalog.js, each in its own
 * process, one after the other.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// The trigger runs twice: with n8n's default expression engine (vm: n8n acquires an isolate for every
// delivery to a webhook node that is not its own Webhook node) and with N8N_EXPRESSION_ENGINE=legacy,
// which shows the node's own cost.
const runs = [
	{ name: 'trigger.js', label: 'trigger.js (n8n default expression engine)', env: {} },
	{ name: 'trigger.js', label: 'trigger.js (N8N_EXPRESSION_ENGINE=legacy)', env: { BENCH_N8N_ENV: JSON.stringify({ N8N_EXPRESSION_ENGINE: 'legacy' }) } },
	{ name: 'catalog.js', label: 'catalog.js', env: {} },
];
let failed = false;
for (const { name, label, env } of runs) {
	const file = path.join(__dirname, name);
	if (!fs.existsSync(file)) {
		console.log(`bench: ${name} not present, skipped`);
		continue;
	}
	console.log(`\n===== bench/${label}`);
	const r = spawnSync(process.execPath, [file], { stdio: 'inherit', timeout: 30 * 60 * 1000, env: Object.assign({}, process.env, env) });
	if (r.status !== 0) {
		console.error(`bench/${name} failed (exit ${r.status}${r.signal ? ', ' + r.signal : ''})`);
		failed = true;
	}
}
process.exit(failed ? 1 : 0);
