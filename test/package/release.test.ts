import { newestChangelogVersion, nextVersion } from '../../scripts/release';
import { readText } from '../helpers/files';

describe('the release path', () => {
	it('CHANGELOG.md has an entry for the version in package.json, newest first', () => {
		const pkg = JSON.parse(readText('package.json')) as { version: string };
		const changelog = readText('CHANGELOG.md');
		expect(newestChangelogVersion(changelog)).toBe(pkg.version);
		const versions = [...changelog.matchAll(/^## \[?v?(\d+)\.(\d+)\.(\d+)/gm)].map((m) =>
			m.slice(1, 4).map(Number),
		);
		const newestFirst = [...versions].sort((a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2]);
		expect(versions).toEqual(newestFirst);
		expect(new Set(versions.map((v) => v.join('.'))).size).toBe(versions.length);
	});

	it('the bump names the next version, or the version given', () => {
		expect(nextVersion('0.1.0', 'patch')).toBe('0.1.1');
		expect(nextVersion('0.1.3', 'minor')).toBe('0.2.0');
		expect(nextVersion('0.1.3', 'major')).toBe('1.0.0');
		expect(nextVersion('0.1.3', '0.3.0')).toBe('0.3.0');
		expect(() => nextVersion('0.1.3', 'next')).toThrow(/patch, minor, major/);
	});

	it('reads the newest entry of a changelog', () => {
		expect(newestChangelogVersion('# Changelog\n\n## 1.2.0\n\n- x\n\n## 1.1.0\n')).toBe('1.2.0');
		expect(newestChangelogVersion('# Changelog\n\nnothing yet\n')).toBeUndefined();
	});
});
