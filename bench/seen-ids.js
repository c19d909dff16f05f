#!/usr/bin/env node
'use strict';
/**
 * `node bench/seen-ids.js` (after `npm run build`): what the trigger's record of handled event ids costs
 * per delivery in n8n's static data, with 2,000 ids (the most it keeps): n8n loads the static data
 * from its database for every request (JSON.parse), wraps it in its change-tracking proxy
 * (ObservableObject), the trigger checks and rewrites its record, and n8n saves it (JSON.stringify).
 *
 * Two forms side by side: the one string the trigger writes (its real code, from dist/), and an object
 * of 2,000 keys (what earlier versions wrote), checked and rewritten the way they did it.
 */
const path = require('node:path');
const { ObservableObject } = require('n8n-workflow');
const state = require(
	path.join(__dirname, '..', 'dist', 'nodes', 'triggers', 'webhook', 'state.js'),
);

const N = state.DEDUPE_MAX_IDS;
const REPS = Number(process.env.BENCH_REPS || 500);
const now = Date.now();
const ids = Array.from({ length: N }, (_, i) => String(1795000000000000n + BigInt(i)));

function time(label, fn) {
	for (let i = 0; i < 20; i++) fn(i);
	const t = process.hrtime.bigint();
	for (let r = 0; r < REPS; r++) fn(r);
	const ms = Number(process.hrtime.bigint() - t) / 1e6 / REPS;
	console.log(`| ${label} | ${ms.toFixed(3)} ms |`);
	return ms;
}

// The string form, through the trigger's own claimNewIds: fill the record, then one new id per delivery.
let savedString;
{
	const fill = {};
	state.processMemory.claimNewIds('bench:string', fill, ids, now);
	savedString = JSON.stringify({ node: fill });
}
// The object form, as earlier versions kept it.
const record = new Map(ids.map((id) => [id, now]));
let savedObject = JSON.stringify({ node: { seen: Object.fromEntries(record) } });

console.log(`| ${N} ids in static data, per delivery | time |`);
console.log('|---|---|');
const a = time('one string (this version)', (r) => {
	const data = ObservableObject.create(JSON.parse(savedString));
	state.processMemory.claimNewIds('bench:string', data.node, [`new-${r}`], now + r);
	savedString = JSON.stringify(data);
});
const b = time('object of ids (earlier versions)', (r) => {
	const data = ObservableObject.create(JSON.parse(savedObject));
	const st = data.node;
	Object.entries(st.seen).filter(([id, at]) => !record.has(id) && now - at <= 26 * 3600_000);
	record.set(`new-${r}`, now + r);
	record.delete(record.keys().next().value);
	st.seen = Object.fromEntries(record);
	savedObject = JSON.stringify(data);
});
console.log(`\nthe object form costs ${(b / a).toFixed(1)}x the string form`);
