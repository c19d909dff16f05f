import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const ops = require('./operations.js') as {
	ROOT: string;
	NODES: Array<{ page: string; module: string; cls: string }>;
	declaredKinds(
		description: INodeTypeDescription,
		load: (resource: string) => unknown,
	): Record<string, string[]>;
	operationTables(
		description: INodeTypeDescription,
		entries: Record<string, unknown>,
		declared?: Record<string, string[]>,
	): { text: string; problems: string[]; keys: string[] };
	readMap(): Record<string, Record<string, { endpoints: string[]; notInSandbox?: boolean }>>;
	tableIn(page: string): string | undefined;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server');

const NODES: Record<string, INodeTypeDescription> = {
	'platform-posts.md': new PlatformPosts().description,
	'ads-catalog.md': new AdsCatalog().description,
	'ads-creatives.md': new AdsCreatives().description,
};

function load(page: string) {
	const node = ops.NODES.find((n) => n.page === page)!;
	const dir = path.join(ops.ROOT, 'nodes', path.dirname(node.module), 'resources');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (resource: string) => require(path.join(dir, resource, 'index'));
}

/** `GET /2/users/:id/{tweets,mentions}` → one concrete path per alternative, parameters filled in. */
function concrete(endpoint: string): Array<{ method: string; path: string }> {
	const [method, pattern] = endpoint.split(' ');
	const alt = /\{([^}]+)\}/.exec(pattern);
	const paths = alt ? alt[1].split(',').map((a) => pattern.replace(alt[0], a.trim())) : [pattern];
	return paths.map((p) => ({ method, path: p.replace(/:[A-Za-z_]+/g, 'x1') }));
}

/**
 * The operation tables of docs/nodes/ are generated from the node descriptions and
 * docs/operations.json (`node test/docs/operations.js --write` after `npm run build`): a new or
 * renamed operation, field or option, or a changed credential kind, must reach the page.
 */
describe('the operation tables of the node pages', () => {
	const map = ops.readMap();

	for (const [page, description] of Object.entries(NODES)) {
		describe(page, () => {
			const built = ops.operationTables(
				description,
				map[description.name] ?? {},
				ops.declaredKinds(description, load(page)),
			);

			it('has an entry in docs/operations.json for every operation, and none for another', () => {
				expect(built.problems).toEqual([]);
				expect(built.keys.length).toBeGreaterThan(10);
			});

			it('shows the table the node description gives (regenerate with node test/docs/operations.js --write)', () => {
				const text = fs.readFileSync(path.join(ops.ROOT, 'docs', 'nodes', page), 'utf8');
				expect(ops.tableIn(text)).toBe(built.text);
			});
		});
	}

	it('names only endpoints the sandbox (the service double the e2e suite runs against) serves', () => {
		const sb = createSandbox({ quiet: true });
		const routes = sb.routes as Array<{ method: string; re: RegExp }>;
		const source = (dir: string): string =>
			fs
				.readdirSync(dir, { withFileTypes: true })
				.map((e) =>
					e.isDirectory()
						? source(path.join(dir, e.name))
						: e.name.endsWith('.ts')
							? fs.readFileSync(path.join(dir, e.name), 'utf8')
							: '',
				)
				.join('\n');
		const nodesSource = source(path.join(ops.ROOT, 'nodes'));
		const unknown: string[] = [];
		let checked = 0;
		for (const [node, entries] of Object.entries(map))
			for (const [key, entry] of Object.entries(entries))
				for (const endpoint of entry.endpoints)
					for (const { method, path: p } of concrete(endpoint)) {
						checked++;
						const served = routes.some((r) => r.method === method && r.re.test(p));
						// Outside the sandbox (e.g. OAuth 2.0 token revocation): the path must be in the code.
						const inCode = entry.notInSandbox && nodesSource.includes(endpoint.split(' ')[1]);
						if (!served && !inCode) unknown.push(`${node} ${key}: ${method} ${p}`);
					}
		expect(unknown).toEqual([]);
		expect(checked).toBeGreaterThan(100);
	});
});
