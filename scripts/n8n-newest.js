#!/usr/bin/env node
// Prints the newest n8n 2.x release that installs from the configured npm registry, for the
// compatibility run (`E2E_N8N_VERSION=$(node scripts/n8n-newest.js) npm run test:e2e`).
//
// The rule: newest stable 2.x first (at most N8N_NEWEST_TRIES=6 candidates, none older than the
// pinned 2.40.7); a release qualifies when every one of n8n's own packages it pins exactly (n8n-core,
// n8n-workflow, n8n-nodes-base, n8n-editor-ui, @n8n/*) is served by the registry at that version.
// That is how releases fail here: n8n 2.41.3 pins n8n-core 2.41.2, which the registry copy lacks.
// One `npm view` per package name (all its versions at once), so a run asks the registry a few dozen
// questions, not one per version. Falls back to the pinned version when no newer release qualifies.
'use strict';
const { execFileSync } = require('node:child_process');

const PINNED = '2.40.7';
const TRIES = Number(process.env.N8N_NEWEST_TRIES || 6);

function view(args) {
	const out = execFileSync('npm', ['view', ...args, '--json'], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		maxBuffer: 64 << 20,
	});
	return out.trim() ? JSON.parse(out) : undefined;
}

const parse = (v) => v.split('.').map(Number);
const newer = (a, b) => {
	const [x, y] = [parse(a), parse(b)];
	return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

function main() {
	const stable = view(['n8n', 'versions'])
		.filter((v) => /^2\.\d+\.\d+$/.test(v) && newer(v, PINNED) >= 0)
		.sort((a, b) => newer(b, a))
		.slice(0, TRIES);
	const served = new Map();
	const has = (name, version) => {
		if (!served.has(name)) {
			try {
				served.set(name, new Set([].concat(view([name, 'versions']))));
			} catch {
				served.set(name, new Set());
			}
		}
		return served.get(name).has(version);
	};
	for (const candidate of stable) {
		const deps = view([`n8n@${candidate}`, 'dependencies']) || {};
		const own = Object.entries(deps).filter(
			([name, range]) =>
				(/^n8n-/.test(name) || name.startsWith('@n8n/')) && /^\d+\.\d+\.\d+$/.test(range),
		);
		const missing = own.filter(([name, version]) => !has(name, version));
		if (!missing.length) {
			console.log(candidate);
			return;
		}
		console.error(
			`n8n ${candidate}: the registry lacks ${missing.map(([n, v]) => `${n}@${v}`).join(', ')}`,
		);
	}
	console.error(`no newer n8n 2.x qualifies; using the pinned ${PINNED}`);
	console.log(PINNED);
}

main();
