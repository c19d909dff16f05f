'use strict';
// Test-only helpers that run the repository's scripts as child processes, in the repository or in a
// throwaway git repository (kept out of the TypeScript tests, which follow the rules of node code: no
// child processes, no file system).
const { spawnSync, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function result(r) {
	return { code: r.status, stdout: r.stdout || '', stderr: r.stderr || '' };
}

/** Runs `node <rel> ...args` from the repository's root with `env` added to the environment. */
function runScript(rel, args = [], env = {}, { timeoutMs = 120000 } = {}) {
	return result(
		spawnSync(process.execPath, [path.join(ROOT, rel), ...args], {
			cwd: ROOT,
			env: Object.assign({}, process.env, env),
			encoding: 'utf8',
			timeout: timeoutMs,
		}),
	);
}

/**
 * A throwaway git repository on branch main with the repository's scripts/release.js, a package.json at
 * `version` whose `npm test` runs `testScript`, its package-lock.json and `changelog`, all committed.
 */
function releaseRepo({ version, changelog, testScript = 'node -e ""' }) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-repo-'));
	const git = (...args) =>
		execFileSync('git', args, {
			cwd: dir,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		}).trim();
	const write = (rel, text) => {
		fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
		fs.writeFileSync(path.join(dir, rel), text);
	};
	const read = (rel) => fs.readFileSync(path.join(dir, rel), 'utf8');
	write(
		'package.json',
		`${JSON.stringify({ name: 'release-fixture', version, private: true, scripts: { test: testScript } }, null, 2)}\n`,
	);
	write(
		'package-lock.json',
		`${JSON.stringify(
			{
				name: 'release-fixture',
				version,
				lockfileVersion: 3,
				requires: true,
				packages: { '': { name: 'release-fixture', version } },
			},
			null,
			2,
		)}\n`,
	);
	write('CHANGELOG.md', changelog);
	write('scripts/release.js', fs.readFileSync(path.join(ROOT, 'scripts', 'release.js'), 'utf8'));
	git('init', '--quiet', '--initial-branch=main');
	git('config', 'user.email', 'release-test@example.com');
	git('config', 'user.name', 'Release Test');
	git('config', 'commit.gpgsign', 'false');
	git('config', 'tag.gpgsign', 'false');
	git('add', '.');
	git('commit', '--quiet', '-m', 'fixture');
	return {
		dir,
		git,
		read,
		write,
		commit(message) {
			git('add', '.');
			git('commit', '--quiet', '-m', message);
		},
		/** `node scripts/release.js ...args` inside the repository. */
		release(...args) {
			return result(
				spawnSync(process.execPath, [path.join(dir, 'scripts', 'release.js'), ...args], {
					cwd: dir,
					encoding: 'utf8',
					timeout: 120000,
					env: Object.assign({}, process.env, { npm_config_loglevel: 'error' }),
				}),
			);
		},
		remove() {
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

module.exports = { runScript, releaseRepo };
