import {
	checkTag,
	compareVersions,
	cutRelease,
	hasUnreleasedEntries,
	newestChangelogVersion,
	nextVersion,
	parseChangelog,
	planRelease,
} from '../../scripts/release';
import { readText } from '../helpers/files';
import { releaseRepo, type ReleaseRepo } from './scripts-run';

const HEADER = '# Changelog\n\nWhat changed, newest first.\n\n';
const UNRELEASED = `${HEADER}## Unreleased\n\n- Platform Trigger v2: a Status output.\n- Ads Catalog v2: Push paced by the rate-limit headers.\n`;
const RELEASED = `${HEADER}## Unreleased\n\n## 0.1.0 - 2026-11-25\n\n- First.\n`;

describe('the repository as it is', () => {
	const pkg = JSON.parse(readText('package.json')) as { version: string };
	const changelog = readText('CHANGELOG.md');
	const { unreleased, releases } = parseChangelog(changelog);

	it('CHANGELOG.md has an Unreleased section above its released sections', () => {
		expect(unreleased).toBeDefined();
		expect(changelog.indexOf('## Unreleased')).toBeLessThan(
			releases.length ? changelog.indexOf(`## ${releases[0].version}`) : Infinity,
		);
	});

	it("its released sections are newest first, each once, the newest being package.json's version", () => {
		const versions = releases.map((r) => r.version);
		expect(versions).toEqual([...versions].sort((a, b) => compareVersions(b, a)));
		expect(new Set(versions).size).toBe(versions.length);
		// Before the first release no section exists and package.json holds the version to publish.
		if (versions.length) expect(versions[0]).toBe(pkg.version);
	});

	it("a release can be cut from it with package.json's version or above", () => {
		const plan = planRelease({
			changelog,
			pkgVersion: pkg.version,
			bump: releases.length ? 'patch' : pkg.version,
		});
		if (hasUnreleasedEntries(changelog)) expect(plan.problems).toEqual([]);
		else expect(plan.problems).toEqual([expect.stringMatching(/Unreleased section is empty/)]);
	});
});

describe('reading a changelog', () => {
	it('finds Unreleased and the released sections with their dates', () => {
		const text = `${HEADER}## Unreleased\n\n- c\n\n## 1.2.0 - 2026-12-01\n\n- b\n\n## 1.1.0\n\n- a\n`;
		expect(parseChangelog(text)).toEqual({
			unreleased: '- c',
			releases: [
				{ version: '1.2.0', date: '2026-12-01', body: '- b' },
				{ version: '1.1.0', date: undefined, body: '- a' },
			],
		});
		expect(newestChangelogVersion(text)).toBe('1.2.0');
	});

	it('Unreleased is not a release, and an empty one holds no entries', () => {
		expect(newestChangelogVersion(UNRELEASED)).toBeUndefined();
		expect(hasUnreleasedEntries(UNRELEASED)).toBe(true);
		expect(hasUnreleasedEntries(RELEASED)).toBe(false);
		expect(hasUnreleasedEntries(`${HEADER}## Unreleased\n\n<!-- add entries here -->\n`)).toBe(
			false,
		);
		expect(hasUnreleasedEntries(`${HEADER}## 0.1.0\n\n- a\n`)).toBe(false);
	});
});

describe('the version of a release', () => {
	it('a bump names the version after the newest released one; a version names itself', () => {
		expect(nextVersion('0.1.0', 'patch')).toBe('0.1.1');
		expect(nextVersion('0.1.3', 'minor')).toBe('0.2.0');
		expect(nextVersion('0.1.3', 'major')).toBe('1.0.0');
		expect(nextVersion('0.1.3', '0.3.0')).toBe('0.3.0');
		expect(() => nextVersion('0.1.3', 'next')).toThrow(/patch, minor, major/);
	});

	it('the first release is named: nothing is released to bump', () => {
		expect(planRelease({ changelog: UNRELEASED, pkgVersion: '0.1.0', bump: '0.1.0' })).toEqual({
			version: '0.1.0',
			problems: [],
		});
		const bumped = planRelease({ changelog: UNRELEASED, pkgVersion: '0.1.0', bump: 'patch' });
		expect(bumped.version).toBeUndefined();
		expect(bumped.problems).toEqual([
			expect.stringMatching(/nothing is released yet.*release -- 0\.1\.0/),
		]);
		expect(
			planRelease({ changelog: UNRELEASED, pkgVersion: '0.2.0', bump: '0.1.0' }).problems,
		).toEqual([expect.stringMatching(/below package.json's version 0\.2\.0/)]);
	});

	it('refuses an empty Unreleased, a version not above the last, an existing tag', () => {
		const later = `${HEADER}## Unreleased\n\n- d\n\n## 0.2.0 - 2026-12-01\n\n- c\n`;
		expect(
			planRelease({ changelog: RELEASED, pkgVersion: '0.1.0', bump: 'patch' }).problems,
		).toEqual([expect.stringMatching(/Unreleased section is empty/)]);
		expect(planRelease({ changelog: later, pkgVersion: '0.2.0', bump: '0.2.0' }).problems).toEqual([
			expect.stringMatching(/not above the newest released version 0\.2\.0/),
			expect.stringMatching(/already has a section for 0\.2\.0/),
		]);
		expect(
			planRelease({ changelog: later, pkgVersion: '0.2.0', bump: 'patch', tags: ['v0.2.1'] })
				.problems,
		).toEqual([expect.stringMatching(/tag v0\.2\.1 exists/)]);
		expect(
			planRelease({ changelog: UNRELEASED, pkgVersion: '0.1.0', bump: '0.1.0', tags: ['v0.0.9'] })
				.problems,
		).toEqual([expect.stringMatching(/no released section, but the repository has version tags/)]);
	});

	it("cutting moves the Unreleased entries into the version's section and leaves Unreleased empty", () => {
		const next = cutRelease(
			`${UNRELEASED}\n## 0.0.9 - 2026-01-01\n\n- old\n`,
			'0.1.0',
			'2026-11-25',
		);
		expect(next).toBe(
			`${HEADER}## Unreleased\n\n## 0.1.0 - 2026-11-25\n\n- Platform Trigger v2: a Status output.\n- Ads Catalog v2: Push paced by the rate-limit headers.\n\n## 0.0.9 - 2026-01-01\n\n- old\n`,
		);
		expect(hasUnreleasedEntries(next)).toBe(false);
		expect(newestChangelogVersion(next)).toBe('0.1.0');
	});
});

describe('--check-tag (the publish workflow)', () => {
	it("passes a tag that names package.json's version and the newest section, with Unreleased empty", () => {
		expect(checkTag({ tag: 'v0.1.0', pkgVersion: '0.1.0', changelog: RELEASED })).toEqual([]);
	});

	it('refuses a tag while Unreleased holds entries', () => {
		const pending = RELEASED.replace('## Unreleased\n', '## Unreleased\n\n- Push v2.\n');
		expect(checkTag({ tag: 'v0.1.0', pkgVersion: '0.1.0', changelog: pending })).toEqual([
			expect.stringMatching(/Unreleased section holds entries/),
		]);
	});

	it("refuses a tag without a section, or other than package.json's version", () => {
		expect(checkTag({ tag: 'v0.1.0', pkgVersion: '0.1.0', changelog: UNRELEASED })).toEqual([
			expect.stringMatching(/no section for 0\.1\.0/),
			expect.stringMatching(/Unreleased section holds entries/),
		]);
		expect(checkTag({ tag: 'v0.1.1', pkgVersion: '0.1.0', changelog: RELEASED })).toEqual([
			expect.stringMatching(/does not name package.json's version 0\.1\.0/),
			expect.stringMatching(/no section for 0\.1\.1/),
		]);
		expect(checkTag({ tag: '0.1.0', pkgVersion: '0.1.0', changelog: RELEASED })).toEqual([
			expect.stringMatching(/not a version tag/),
		]);
	});
});

describe('npm run release in a git repository', () => {
	let repo: ReleaseRepo | undefined;
	afterEach(() => repo?.remove());

	it('--check-tag refuses v0.1.0 while unreleased changes sit above the 0.1.0 section', () => {
		repo = releaseRepo({
			version: '0.1.0',
			changelog: RELEASED.replace('## Unreleased\n', '## Unreleased\n\n- Push v2.\n'),
		});
		const r = repo.release('--check-tag', 'v0.1.0');
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/Unreleased section holds entries/);
	});

	it("cuts the first release at package.json's version, then a patch release", () => {
		repo = releaseRepo({ version: '0.1.0', changelog: UNRELEASED });
		expect(repo.release('--check-tag', 'v0.1.0').code).toBe(1);

		const dry = repo.release('0.1.0', '--dry-run');
		expect(dry.stderr).toBe('');
		expect(dry.code).toBe(0);
		expect(dry.stdout).toMatch(/package\.json: 0\.1\.0 -> 0\.1\.0 \(the same: the first release\)/);
		expect(dry.stdout).toMatch(/## 0\.1\.0 - \d{4}-\d{2}-\d{2}\n\n- Platform Trigger v2/);
		expect(repo.git('status', '--porcelain')).toBe('');
		expect(repo.git('tag', '--list')).toBe('');

		const first = repo.release('0.1.0');
		expect(first.stderr).not.toMatch(/release:/);
		expect(first.code).toBe(0);
		expect(repo.git('status', '--porcelain')).toBe('');
		expect(repo.git('log', '-1', '--format=%s')).toBe('Release 0.1.0');
		expect(repo.git('cat-file', '-t', 'v0.1.0')).toBe('tag'); // annotated: push --follow-tags sends it
		expect(repo.git('rev-parse', 'v0.1.0^{commit}')).toBe(repo.git('rev-parse', 'HEAD'));
		const changelog = repo.read('CHANGELOG.md');
		expect(hasUnreleasedEntries(changelog)).toBe(false);
		expect(parseChangelog(changelog).releases).toEqual([
			expect.objectContaining({
				version: '0.1.0',
				body: '- Platform Trigger v2: a Status output.\n- Ads Catalog v2: Push paced by the rate-limit headers.',
			}),
		]);
		const checked = repo.release('--check-tag', 'v0.1.0');
		expect(checked.stderr).toBe('');
		expect(checked.code).toBe(0);
		expect(repo.release('--check-tag', 'v0.1.1').code).toBe(1);

		expect(repo.release('patch').stderr).toMatch(/Unreleased section is empty/);
		repo.write('CHANGELOG.md', changelog.replace('## Unreleased\n', '## Unreleased\n\n- A fix.\n'));
		expect(repo.release('patch').stderr).toMatch(/uncommitted changes/);
		repo.commit('changelog: a fix');
		expect(repo.release('patch').code).toBe(0);
		expect(JSON.parse(repo.read('package.json')).version).toBe('0.1.1');
		expect(JSON.parse(repo.read('package-lock.json')).packages[''].version).toBe('0.1.1');
		expect(repo.git('tag', '--list').split('\n')).toEqual(['v0.1.0', 'v0.1.1']);
		expect(newestChangelogVersion(repo.read('CHANGELOG.md'))).toBe('0.1.1');
		expect(repo.release('--check-tag', 'v0.1.1').code).toBe(0);
	});

	it('a failing npm test stops the release before anything changes', () => {
		repo = releaseRepo({ version: '0.1.0', changelog: UNRELEASED, testScript: 'exit 3' });
		expect(repo.release('0.1.0').code).not.toBe(0);
		expect(repo.git('status', '--porcelain')).toBe('');
		expect(repo.git('tag', '--list')).toBe('');
		expect(repo.git('log', '-1', '--format=%s')).toBe('fixture');
	});
});
