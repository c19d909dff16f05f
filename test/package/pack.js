'use strict';
// Test-only helpers around the packed package (kept out of the TypeScript tests, which follow the
// rules of node code: no child processes, no file system).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function manifest() {
	return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
}

function requireBuilt() {
	if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes')))
		throw new Error('dist/ is missing: run `npm run build` first (npm test builds before jest)');
}

/** What `npm pack` would put in the tarball, as npm lists it (paths relative to the package root). */
function packedFiles() {
	requireBuilt();
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	return JSON.parse(out)[0]
		.files.map((f) => f.path)
		.sort();
}

/**
 * Packs the package into a new temporary folder and unpacks it there; returns the folder holding
 * the unpacked `package/` and the tarball's path. The caller removes the folder.
 */
function packToTemp(prefix = 'platform-pack-') {
	requireBuilt();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const out = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', work],
		{ cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const tarball = path.join(work, JSON.parse(out)[0].filename);
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	return { work, tarball, packageDir: path.join(work, 'package') };
}

/**
 * Runs installer-layout.js in its own Node process (module resolution hooks stay out of jest) on an
 * unpacked package, with the repository's node_modules standing in for the n8n instance's own.
 */
function loadInInstallerLayout(unpackedDir, workDir) {
	const script = path.join(__dirname, 'installer-layout.js');
	const args = [script, unpackedDir, path.join(ROOT, 'node_modules'), workDir];
	let stdout;
	let code = 0;
	try {
		stdout = execFileSync(process.execPath, args, {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	} catch (error) {
		stdout = String(error.stdout ?? '');
		code = error.status ?? 1;
		if (!stdout.trim())
			throw new Error(`installer-layout.js failed: ${error.stderr ?? error.message}`);
	}
	return { code, ...JSON.parse(stdout.trim().split('\n').pop()) };
}

/** Adds a line of code to the top of a file of an unpacked package (to plant a forbidden require). */
function plant(unpackedDir, rel, line) {
	const file = path.join(unpackedDir, rel);
	fs.writeFileSync(file, `${line}\n${fs.readFileSync(file, 'utf8')}`);
}

function copyDir(from, to) {
	fs.cpSync(from, to, { recursive: true });
}

function removeDir(dir) {
	fs.rmSync(dir, { recursive: true, force: true });
}

module.exports = {
	ROOT,
	manifest,
	packedFiles,
	packToTemp,
	loadInInstallerLayout,
	plant,
	copyDir,
	removeDir,
};
