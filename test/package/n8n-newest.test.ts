import { newestN8n } from '../../scripts/n8n-newest';
import { runScript } from './scripts-run';

/** A registry answer as `npm view <args> --json` parses it; a key missing from `packages` is a 404. */
function registry({
	latest,
	versions,
	dependencies = {},
	packages = {},
	failing,
}: {
	latest?: string;
	versions: string[];
	dependencies?: Record<string, Record<string, string>>;
	packages?: Record<string, string[]>;
	failing?: { name: string; code: string };
}) {
	const asked: string[] = [];
	const view = (args: string[]): unknown => {
		asked.push(args.join(' '));
		const [name, field] = args;
		if (failing && name === failing.name)
			throw Object.assign(new Error(`npm view ${args.join(' ')} failed: ${failing.code}`), {
				code: failing.code,
			});
		if (name === 'n8n' && field === 'dist-tags') return latest ? { latest } : {};
		if (name === 'n8n' && field === 'versions') return versions;
		if (name.startsWith('n8n@') && field === 'dependencies')
			return dependencies[name.slice(4)] ?? { express: '^5.0.0' };
		if (field === 'versions' && packages[name]) return packages[name];
		throw Object.assign(new Error(`npm view ${args.join(' ')} failed: E404`), { code: 'E404' });
	};
	return { view, asked };
}

describe('scripts/n8n-newest.js', () => {
	const versions = ['2.39.0', '2.40.7', '2.41.0', '2.41.1', '2.41.3', '2.42.0', '2.42.1', '3.0.0'];

	it('never goes above the latest dist-tag, even when higher plain x.y.z versions exist', () => {
		const r = registry({ latest: '2.41.3', versions });
		expect(newestN8n({ view: r.view })).toBe('2.41.3');
		expect(r.asked).not.toContain('n8n@2.42.1 dependencies');
		expect(r.asked).not.toContain('n8n@2.42.0 dependencies');
	});

	it('takes the highest 2.x.y below a latest of another major', () => {
		expect(newestN8n({ view: registry({ latest: '3.0.0', versions }).view })).toBe('2.42.1');
	});

	it('passes over a release whose pinned own packages the registry lacks, and says which', () => {
		const lines: string[] = [];
		const r = registry({
			latest: '2.41.3',
			versions,
			dependencies: {
				'2.41.3': { 'n8n-core': '2.41.2', '@n8n/config': '2.39.1', express: '^5.0.0' },
				'2.41.1': { 'n8n-core': '2.41.1', '@n8n/config': '2.39.0' },
			},
			packages: { 'n8n-core': ['2.41.1', '2.41.3'], '@n8n/config': ['2.39.0', '2.39.1'] },
		});
		expect(newestN8n({ view: r.view, log: (l) => lines.push(l) })).toBe('2.41.1');
		expect(lines).toEqual(['n8n 2.41.3: the registry lacks n8n-core@2.41.2']);
	});

	it('a package the registry does not have (404) disqualifies; the pinned version when none qualifies', () => {
		const lines: string[] = [];
		const r = registry({
			latest: '2.41.1',
			versions,
			dependencies: {
				'2.41.1': { '@n8n/agents': '0.26.2' },
				'2.41.0': { '@n8n/agents': '0.26.1' },
				'2.40.7': { '@n8n/agents': '0.26.0' },
			},
		});
		expect(newestN8n({ view: r.view, log: (l) => lines.push(l) })).toBe('2.40.7');
		expect(lines.pop()).toMatch(/no n8n 2\.x from 2\.40\.7 up to latest 2\.41\.1 qualifies/);
		expect(r.asked.filter((a) => a === '@n8n/agents versions')).toHaveLength(1);
	});

	it('a registry error is an error, not the pinned version', () => {
		const dependencies = { '2.41.3': { 'n8n-core': '2.41.3' } };
		const failing = { name: 'n8n-core', code: 'ECONNRESET' };
		expect(() =>
			newestN8n({ view: registry({ latest: '2.41.3', versions, dependencies, failing }).view }),
		).toThrow(/ECONNRESET/);
		expect(() =>
			newestN8n({ view: registry({ versions, failing: { name: 'n8n', code: 'E500' } }).view }),
		).toThrow(/E500/);
		expect(() => newestN8n({ view: registry({ versions }).view })).toThrow(
			/no plain x\.y\.z latest/,
		);
	});

	it('exits non-zero with the reason when the registry is unreachable', () => {
		const r = runScript('scripts/n8n-newest.js', [], {
			npm_config_registry: 'http://127.0.0.1:9/',
			npm_config_fetch_retries: '0',
		});
		expect(r.stdout).toBe('');
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/^n8n-newest: npm view n8n dist-tags failed: ECONNREFUSED/);
	});
});
