#!/usr/bin/env node
// Releases a version: `npm run release -- <patch|minor|major|x.y.z>`.
//
// Before: CHANGELOG.md has an entry `## x.y.z` for the new version at the top, committed, on a clean
// main. Then this runs `npm test`, sets the version in package.json and package-lock.json, commits
// ("Release x.y.z") and tags vx.y.z. `git push --follow-tags` (printed at the end) sends the tag to
// GitHub, where .github/workflows/publish.yml tests again and publishes with npm provenance. Nothing
// is published from this machine: n8n accepts only packages published from GitHub Actions with a
// provenance statement.
//
// `node scripts/release.js --check-tag <tag>` (the publish workflow): the tag, package.json and the
// newest CHANGELOG.md entry name the same version.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/** The version of the newest entry of a changelog (`## x.y.z` headings, newest first). */
function newestChangelogVersion(text) {
	const match = /^## \[?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\]?/m.exec(text);
	return match ? match[1] : undefined;
}

function nextVersion(current, bump) {
	if (/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(bump)) return bump;
	const [major, minor, patch] = current.split('-')[0].split('.').map(Number);
	if (bump === 'major') return `${major + 1}.0.0`;
	if (bump === 'minor') return `${major}.${minor + 1}.0`;
	if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
	throw new Error(`unknown version or bump "${bump}" (patch, minor, major or x.y.z)`);
}

function read(rel) {
	return fs.readFileSync(path.join(ROOT, rel), 'utf8');
}

function fail(message) {
	console.error(`release: ${message}`);
	process.exit(1);
}

function run(command, args) {
	return execFileSync(command, args, {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	}).trim();
}

function main(argv) {
	const pkg = JSON.parse(read('package.json'));
	const changelogVersion = newestChangelogVersion(read('CHANGELOG.md'));
	if (argv[0] === '--check-tag') {
		const tag = argv[1] || '';
		if (tag !== `v${pkg.version}`)
			fail(`tag ${tag} does not name package.json's version ${pkg.version}`);
		if (changelogVersion !== pkg.version)
			fail(`the newest CHANGELOG.md entry is ${changelogVersion}, not ${pkg.version}`);
		console.log(`release: ${tag} = package.json ${pkg.version} = newest CHANGELOG.md entry`);
		return;
	}
	if (!argv[0]) fail('usage: npm run release -- <patch|minor|major|x.y.z>');
	const version = nextVersion(pkg.version, argv[0]);
	if (changelogVersion !== version)
		fail(
			`CHANGELOG.md's newest entry is ${changelogVersion}; add "## ${version}" with its changes at the top and commit it`,
		);
	if (run('git', ['status', '--porcelain'])) fail('the working tree has uncommitted changes');
	const branch = run('git', ['rev-parse', '--abbrev-ref', 'HEAD']);
	if (branch !== 'main') fail(`releases are made from main, not ${branch}`);
	execFileSync('npm', ['test'], { cwd: ROOT, stdio: 'inherit' });
	execFileSync('npm', ['version', version, '--message', 'Release %s'], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	console.log(
		`\nrelease: tagged v${version}. Publish it: git push --follow-tags (publish.yml does the rest).`,
	);
}

if (require.main === module) main(process.argv.slice(2));
module.exports = { newestChangelogVersion, nextVersion };
