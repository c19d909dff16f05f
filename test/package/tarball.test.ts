import { manifest, packedFiles } from './pack';

/**
 * The tarball n8n installs holds what n8n loads and the three documents a package is judged by;
 * nothing the build leaves behind for the developer (build info, source maps, a copy of package.json).
 */
const LOADED: Array<[string, RegExp]> = [
	['compiled node and credential code', /^dist\/(nodes|credentials)\/.+\.js$/],
	['node codex (categories in the nodes panel)', /^dist\/nodes\/[^/]+\/[^/]+\.node\.json$/],
	['output schemas shown in the editor', /^dist\/nodes\/.+\/__schema__\/.+\.json$/],
	['icons', /^dist\/icons\/[^/]+\.(svg|png)$/],
];
const DOCUMENTS = ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'];

describe('the packed package', () => {
	const files = packedFiles();

	it('holds only what n8n loads plus README, LICENSE, CHANGELOG and package.json', () => {
		const stray = files.filter(
			(f) => !DOCUMENTS.includes(f) && !LOADED.some(([, pattern]) => pattern.test(f)),
		);
		expect(stray).toEqual([]);
		for (const doc of DOCUMENTS) expect(files).toContain(doc);
	});

	it('carries no build info, source map or stray package.json', () => {
		expect(files.filter((f) => /\.map$|tsbuildinfo|^dist\/.*package\.json$/.test(f))).toEqual([]);
	});

	it('holds every node and credential package.json names, and main is valid or absent', () => {
		const pkg = manifest();
		for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(files).toContain(entry);
		if (pkg.main !== undefined) expect(files).toContain(pkg.main);
		const absent = LOADED.filter(([, pattern]) => !files.some((f) => pattern.test(f)));
		expect(absent.map(([label]) => label)).toEqual([]);
	});

	it('declares no runtime dependencies and n8n-workflow as its only peer', () => {
		const pkg = manifest();
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(Object.keys(pkg.peerDependencies ?? {})).toEqual(['n8n-workflow']);
	});
});
