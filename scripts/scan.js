#!/usr/bin/env node
// Runs n8n's community-package analyser (@n8n/scan-community-package, offline) on the source and on
// the packed tarball, as n8n does before it verifies a package. Exits non-zero on any violation.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

async function main() {
	const root = path.resolve(__dirname, '..');
	const scanner = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	let failed = false;

	const report = (label, result) => {
		if (result.passed) {
			console.log(`scan ${label}: passed${result.message ? ` (${result.message})` : ''}`);
		} else {
			failed = true;
			console.error(`scan ${label}: FAILED: ${result.message}\n${result.details ?? ''}`);
		}
	};

	report('source', await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS));

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-scan-'));
	try {
		const out = execFileSync(
			'npm',
			['pack', '--ignore-scripts', '--json', '--pack-destination', work],
			{
				cwd: root,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'inherit'],
			},
		);
		const tarball = path.join(work, JSON.parse(out)[0].filename);
		execFileSync('tar', ['-xzf', tarball, '-C', work]);
		const packageDir = path.join(work, 'package');
		const files = fs.readdirSync(path.join(packageDir, 'dist'));
		if (!files.includes('nodes') || !files.includes('credentials')) {
			failed = true;
			console.error(
				'scan tarball: FAILED: dist/nodes or dist/credentials missing (run the build first)',
			);
		}
		report(`tarball ${path.basename(tarball)}`, await scanner.analyzePackage(packageDir));
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
	if (failed) process.exit(1);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
