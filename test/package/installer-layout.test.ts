import { copyDir, loadInInstallerLayout, manifest, packToTemp, plant, removeDir } from './pack';

/**
 * The packed package, laid out as n8n's Community Nodes installer lays it out, loads every node and
 * credential with only what an n8n instance provides to community packages: Node's own modules, the
 * package's own files, and n8n-workflow, zod, lodash, moment, p-limit, luxon. README ("Install in
 * n8n") names the ones it relies on.
 */
describe('the package in the installer layout', () => {
	let packed: ReturnType<typeof packToTemp>;
	beforeAll(() => {
		packed = packToTemp('platform-layout-');
	});
	afterAll(() => removeDir(packed.work));

	it('loads every node and credential with n8n-provided modules only', () => {
		const pkg = manifest();
		const result = loadInInstallerLayout(packed.packageDir, `${packed.work}/installed`);
		expect(result.refused).toEqual([]);
		expect(result.failed).toEqual([]);
		expect(result.loaded.sort()).toEqual([...pkg.n8n.credentials, ...pkg.n8n.nodes].sort());
		expect(result.external).toEqual(['n8n-workflow', 'zod']);
		expect(result.code).toBe(0);
	});

	it('fails when a node requires a package n8n does not provide', () => {
		const pkg = manifest();
		const copy = `${packed.work}/planted`;
		copyDir(packed.packageDir, copy);
		const node = pkg.n8n.nodes[0];
		// nock is installed beside this repository, so only the layout's rule can refuse it.
		plant(copy, node, 'require("nock");');
		const result = loadInInstallerLayout(copy, `${packed.work}/installed-planted`);
		expect(result.code).toBe(1);
		expect(result.refused).toEqual([
			{ from: node, request: 'nock', why: 'not provided by n8n to community packages' },
		]);
		expect(result.failed.map((f) => f.file)).toEqual([node]);
	});
});
