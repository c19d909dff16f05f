#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: runs bench/trigger.js (Platform Trigger vs plain Webhook in a real n8n, CRC latency)
 * and bench/catalog.js when present, each in its own process, one after the other.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

let failed = false;
for (const name of ['trigger.js', 'catalog.js']) {
	const file = path.join(__dirname, name);
	if (!fs.existsSync(file)) {
		console.log(`bench: ${name} not present, skipped`);
		continue;
	}
	console.log(`\n===== bench/${name}`);
	const r = spawnSync(process.execPath, [file], { stdio: 'inherit', timeout: 30 * 60 * 1000 });
	if (r.status !== 0) {
		console.error(`bench/${name} failed (exit ${r.status}${r.signal ? ', ' + r.signal : ''})`);
		failed = true;
	}
}
process.exit(failed ? 1 : 0);
