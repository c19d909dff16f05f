#!/usr/bin/env node
// Cuts a release from CHANGELOG.md's Unreleased section: `npm run release -- <x.y.z|patch|minor|major>`.
//
// CHANGELOG.md collects what changed under `## Unreleased` as it happens. A release moves those entries
// into a new `## x.y.z - YYYY-MM-DD` section below an empty Unreleased, sets the version in
// package.json and package-lock.json, commits the three files ("Release x.y.z") and makes the annotated
// tag vx.y.z; `git push --follow-tags` (printed at the end) sends both to GitHub, where
// .github/workflows/publish.yml checks the tag, tests again and publishes with npm provenance. Nothing
// is published from this machine: n8n accepts only packages published from GitHub Actions with a
// provenance statement.
//
// Refused: an empty Unreleased, a version not above the newest released one or whose tag exists, a
// dirty tree, a branch other than main, a failing `npm test`. The first release: nothing is released
// (no `## x.y.z` section, no v* tag) and package.json already holds the version to publish; name it
// (`npm run release -- 0.1.0`): npm sets the same version again without refusing, and a bump keyword is
// refused because there is no released version to bump. `--dry-run` runs every check and prints what
// the release would write and run, without running `npm test` or changing anything.
//
// `node scripts/release.js --check-tag vx.y.z` (the publish workflow): the tag names package.json's
// version, CHANGELOG.md's newest released section is that version, and Unreleased holds no entries.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;
const UNRELEASED = /^## \[?Unreleased\]?[ \t]*$/im;
const RELEASED =
	/^## \[?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\]?(?:[ \t]+-[ \t]+(\d{4}-\d{2}-\d{2}))?[ \t]*$/;

/**
 * The sections of a changelog: `unreleased` (the body under `## Unreleased`, or undefined when there is
 * no such heading) and `releases`, the `## x.y.z` sections in file order (version, date, body).
 */
function parseChangelog(text) {
	const lines = text.split('\n');
	const sections = [];
	for (let i = 0; i < lines.length; i++) {
		if (!/^## /.test(lines[i])) continue;
		sections.push({ heading: lines[i], start: i });
	}
	const body = (k) =>
		lines
			.slice(sections[k].start + 1, k + 1 < sections.length ? sections[k + 1].start : lines.length)
			.join('\n')
			.trim();
	let unreleased;
	const releases = [];
	sections.forEach((s, k) => {
		if (UNRELEASED.test(s.heading)) unreleased = body(k);
		else {
			const m = RELEASED.exec(s.heading);
			if (m) releases.push({ version: m[1], date: m[2], body: body(k) });
		}
	});
	return { unreleased, releases };
}

/** The version of the newest released section (`## x.y.z`, newest first); Unreleased is not one. */
function newestChangelogVersion(text) {
	const [newest] = parseChangelog(text).releases;
	return newest ? newest.version : undefined;
}

/** Whether Unreleased holds entries (any text besides blank lines and HTML comments). */
function hasUnreleasedEntries(text) {
	const { unreleased } = parseChangelog(text);
	return !!unreleased && unreleased.replace(/<!--[\s\S]*?-->/g, '').trim() !== '';
}

function compareVersions(a, b) {
	const [x, y] = [VERSION.exec(a), VERSION.exec(b)];
	for (let i = 1; i <= 3; i++)
		if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
	// A prerelease ranks below its release; two prereleases compare as text (enough for -rc.1 < -rc.2).
	if (!x[4] !== !y[4]) return x[4] ? -1 : 1;
	return (x[4] || '').localeCompare(y[4] || '');
}

/** The version a bump names after `current` (the newest released version), or the version given. */
function nextVersion(current, bump) {
	if (VERSION.test(bump)) return bump;
	if (!['major', 'minor', 'patch'].includes(bump))
		throw new Error(`unknown version or bump "${bump}" (patch, minor, major or x.y.z)`);
	if (!current)
		throw new Error(
			`nothing is released yet, so there is no version to ${bump}: name the first version (package.json says which)`,
		);
	const [major, minor, patch] = current.split('-')[0].split('.').map(Number);
	if (bump === 'major') return `${major + 1}.0.0`;
	if (bump === 'minor') return `${major}.${minor + 1}.0`;
	return `${major}.${minor}.${patch + 1}`;
}

/**
 * The version a release would publish and why it may not: `changelog` (CHANGELOG.md's text),
 * `pkgVersion` (package.json's), `bump` (x.y.z, patch, minor or major), `tags` (the repository's tags).
 */
function planRelease({ changelog, pkgVersion, bump, tags = [] }) {
	const problems = [];
	const { unreleased, releases } = parseChangelog(changelog);
	const released = releases.length ? releases[0].version : undefined;
	let version;
	try {
		version = nextVersion(released, bump);
	} catch (error) {
		const first = !released && ['major', 'minor', 'patch'].includes(bump);
		return {
			version: undefined,
			problems: [first ? `${error.message}: npm run release -- ${pkgVersion}` : error.message],
		};
	}
	if (unreleased === undefined)
		problems.push('CHANGELOG.md has no "## Unreleased" section to release from');
	else if (!hasUnreleasedEntries(changelog))
		problems.push("CHANGELOG.md's Unreleased section is empty: nothing to release");
	if (released && compareVersions(version, released) <= 0)
		problems.push(`${version} is not above the newest released version ${released}`);
	if (releases.some((r) => r.version === version))
		problems.push(`CHANGELOG.md already has a section for ${version}`);
	if (tags.includes(`v${version}`)) problems.push(`the tag v${version} exists already`);
	const versionTags = tags.filter((t) => /^v\d+\.\d+\.\d+/.test(t));
	if (!released && versionTags.length)
		problems.push(
			`CHANGELOG.md has no released section, but the repository has version tags (${versionTags.join(', ')})`,
		);
	if (!released && compareVersions(version, pkgVersion) < 0)
		problems.push(
			`the first release ${version} is below package.json's version ${pkgVersion}: name ${pkgVersion} or above`,
		);
	return { version, problems };
}

/** CHANGELOG.md after releasing `version` on `date`: Unreleased emptied, its entries in a new section. */
function cutRelease(changelog, version, date) {
	const lines = changelog.split('\n');
	const start = lines.findIndex((l) => UNRELEASED.test(l));
	if (start === -1) throw new Error('CHANGELOG.md has no "## Unreleased" section');
	let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
	if (end === -1) end = lines.length;
	const entries = lines
		.slice(start + 1, end)
		.join('\n')
		.trim();
	const rest = lines.slice(end).join('\n');
	const head = lines.slice(0, start + 1).join('\n');
	return `${head}\n\n## ${version} - ${date}\n\n${entries}\n${rest ? `\n${rest}` : ''}`.replace(
		/\n*$/,
		'\n',
	);
}

/** Why a tag may not be published (empty when it may). */
function checkTag({ tag, pkgVersion, changelog }) {
	const problems = [];
	const m = /^v(.+)$/.exec(tag || '');
	const version = m && VERSION.test(m[1]) ? m[1] : undefined;
	if (!version) return [`"${tag || ''}" is not a version tag (vX.Y.Z)`];
	if (version !== pkgVersion)
		problems.push(`tag ${tag} does not name package.json's version ${pkgVersion}`);
	const { releases } = parseChangelog(changelog);
	if (!releases.some((r) => r.version === version))
		problems.push(`CHANGELOG.md has no section for ${version}`);
	else if (releases[0].version !== version)
		problems.push(
			`CHANGELOG.md's newest released section is ${releases[0].version}, not ${version}`,
		);
	if (hasUnreleasedEntries(changelog))
		problems.push(
			`CHANGELOG.md's Unreleased section holds entries that ${tag} would not contain: cut the release with npm run release`,
		);
	return problems;
}

function read(rel) {
	return fs.readFileSync(path.join(ROOT, rel), 'utf8');
}

function fail(problems) {
	for (const p of [].concat(problems)) console.error(`release: ${p}`);
	process.exit(1);
}

function git(args) {
	return execFileSync('git', args, {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	}).trim();
}

function run(command, args) {
	console.log(`release: ${command} ${args.join(' ')}`);
	execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });
}

function main(argv) {
	const pkg = JSON.parse(read('package.json'));
	const changelog = read('CHANGELOG.md');
	if (argv[0] === '--check-tag') {
		const problems = checkTag({ tag: argv[1], pkgVersion: pkg.version, changelog });
		if (problems.length) fail(problems);
		console.log(
			`release: ${argv[1]} = package.json ${pkg.version} = newest CHANGELOG.md section, Unreleased empty`,
		);
		return;
	}
	const dryRun = argv.includes('--dry-run');
	const [bump] = argv.filter((a) => a !== '--dry-run');
	if (!bump)
		fail(
			"usage: npm run release -- <x.y.z|patch|minor|major> [--dry-run] (the first release: package.json's version)",
		);
	const tags = git(['tag', '--list']).split('\n').filter(Boolean);
	const { version, problems } = planRelease({
		changelog,
		pkgVersion: pkg.version,
		bump,
		tags,
	});
	const dirty = git(['status', '--porcelain']);
	if (dirty) problems.push(`the working tree has uncommitted changes:\n${dirty}`);
	const branch = git(['rev-parse', '--abbrev-ref', 'HEAD']);
	if (branch !== 'main') problems.push(`releases are made from main, not ${branch}`);
	if (!version) fail(problems);

	const date = new Date().toISOString().slice(0, 10);
	const next = cutRelease(changelog, version, date);
	const versionArgs = ['version', version, '--no-git-tag-version', '--allow-same-version'];
	const files = ['CHANGELOG.md', 'package.json', 'package-lock.json'].filter((f) =>
		fs.existsSync(path.join(ROOT, f)),
	);
	if (dryRun) {
		const section = parseChangelog(next).releases[0];
		console.log(`release (dry run): ${version} on ${date} from ${branch} at ${git(['rev-parse', '--short', 'HEAD'])}
  package.json: ${pkg.version} -> ${version}${pkg.version === version ? ' (the same: the first release)' : ''}
  would run: npm test
  would run: npm ${versionArgs.join(' ')}
  would write CHANGELOG.md: Unreleased emptied, its entries moved to "## ${version} - ${date}"
  would run: git add ${files.join(' ')}; git commit -m "Release ${version}"; git tag -a v${version} -m "Release ${version}"
  then you run: git push --follow-tags (publish.yml checks the tag, tests and publishes)
${problems.length ? problems.map((p) => `  REFUSED: ${p}`).join('\n') : '  checks: passed'}
----- the new CHANGELOG.md section -----
## ${version} - ${date}

${section.body}
----- end -----`);
		process.exit(problems.length ? 1 : 0);
	}
	if (problems.length) fail(problems);

	run('npm', ['test']);
	run('npm', versionArgs);
	fs.writeFileSync(path.join(ROOT, 'CHANGELOG.md'), next);
	const check = checkTag({
		tag: `v${version}`,
		pkgVersion: JSON.parse(read('package.json')).version,
		changelog: next,
	});
	if (check.length) fail(check);
	run('git', ['add', ...files]);
	run('git', ['commit', '--quiet', '-m', `Release ${version}`]);
	// Annotated: `git push --follow-tags` sends annotated tags only.
	run('git', ['tag', '-a', `v${version}`, '-m', `Release ${version}`]);
	console.log(
		`\nrelease: committed and tagged v${version}. Publish it: git push --follow-tags (publish.yml does the rest).`,
	);
}

if (require.main === module) main(process.argv.slice(2));
module.exports = {
	parseChangelog,
	newestChangelogVersion,
	hasUnreleasedEntries,
	compareVersions,
	nextVersion,
	planRelease,
	cutRelease,
	checkTag,
};
