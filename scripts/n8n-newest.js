#!/usr/bin/env node
// Prints the newest n8n 2.x release that installs from the configured npm registry, for the
// compatibility run (`E2E_N8N_VERSION=$(node scripts/n8n-newest.js) npm run test:e2e`).
//
// The rule: never above the registry's `latest` dist-tag (n8n publishes its next line, a prerelease in
// all but name, with plain x.y.z numbers too, so the highest number is not the release users get), then
// newest first (at most N8N_NEWEST_TRIES=6 candidates, none older than the pinned 2.40.7); a release
// qualifies when every one of n8n's own packages it pins exactly (n8n-core, n8n-workflow,
// n8n-nodes-base, n8n-editor-ui, @n8n/*) is served by the registry at that version. That is how
// releases fail here: n8n 2.41.3 pins n8n-core 2.41.2, which the registry copy lacks. One `npm view`
// per package name (all its versions at once), so a run asks the registry a few dozen questions, not
// one per version. Prints the pinned version when no newer release qualifies.
//
// A registry that cannot be asked (unreachable, an error other than "no such package") is an error:
// the reason on stderr and exit 1, never the pinned version printed as if it had been chosen.
'use strict';
const { execFileSync } = require('node:child_process');

const PINNED = '2.40.7';

/** `npm view <args> --json`, parsed; a failure throws with npm's error code (E404, ECONNREFUSED, ...). */
function npmView(args) {
	let out;
	try {
		out = execFileSync('npm', ['view', ...args, '--json'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			maxBuffer: 64 << 20,
		});
	} catch (error) {
		let reported;
		try {
			reported = JSON.parse(error.stdout).error;
		} catch {
			// npm printed no JSON error: its stderr says why.
		}
		const reason = reported
			? `${reported.code}: ${reported.summary}`
			: String(error.stderr || error.message)
					.trim()
					.split('\n')
					.slice(0, 3)
					.join(' ');
		const failure = new Error(`npm view ${args.join(' ')} failed: ${reason}`);
		failure.code = reported ? reported.code : undefined;
		throw failure;
	}
	return out.trim() ? JSON.parse(out) : undefined;
}

const parse = (v) => v.split('.').map(Number);
const compare = (a, b) => {
	const [x, y] = [parse(a), parse(b)];
	return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};
const PLAIN = /^\d+\.\d+\.\d+$/;

/**
 * The newest qualifying n8n 2.x (see the header), asking `view` (npmView's signature) the registry's
 * questions; `log` receives why a candidate was passed over.
 */
function newestN8n({ view = npmView, pinned = PINNED, tries = 6, log = () => undefined } = {}) {
	const tags = view(['n8n', 'dist-tags']) || {};
	const latest = tags.latest;
	if (!latest || !PLAIN.test(latest))
		throw new Error(
			`the registry names no plain x.y.z latest version of n8n (dist-tags: ${JSON.stringify(tags)})`,
		);
	const candidates = []
		.concat(view(['n8n', 'versions']) || [])
		.filter((v) => /^2\.\d+\.\d+$/.test(v) && compare(v, pinned) >= 0 && compare(v, latest) <= 0)
		.sort((a, b) => compare(b, a))
		.slice(0, tries);
	const served = new Map();
	const has = (name, version) => {
		if (!served.has(name)) {
			let versions = [];
			try {
				versions = [].concat(view([name, 'versions']) || []);
			} catch (error) {
				// The registry lacks the package: none of its versions is served. Anything else is an error.
				if (error.code !== 'E404') throw error;
			}
			served.set(name, new Set(versions));
		}
		return served.get(name).has(version);
	};
	for (const candidate of candidates) {
		const deps = view([`n8n@${candidate}`, 'dependencies']) || {};
		const own = Object.entries(deps).filter(
			([name, range]) => (/^n8n-/.test(name) || name.startsWith('@n8n/')) && PLAIN.test(range),
		);
		const missing = own.filter(([name, version]) => !has(name, version));
		if (!missing.length) return candidate;
		log(`n8n ${candidate}: the registry lacks ${missing.map(([n, v]) => `${n}@${v}`).join(', ')}`);
	}
	log(`no n8n 2.x from ${pinned} up to latest ${latest} qualifies; using the pinned ${pinned}`);
	return pinned;
}

function main() {
	try {
		console.log(
			newestN8n({
				tries: Number(process.env.N8N_NEWEST_TRIES || 6),
				log: (line) => console.error(line),
			}),
		);
	} catch (error) {
		console.error(`n8n-newest: ${error.message}`);
		process.exit(1);
	}
}

if (require.main === module) main();
module.exports = { newestN8n, npmView, PINNED };
