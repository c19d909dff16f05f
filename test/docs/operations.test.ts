/* eslint-disable @typescript-eslint/no-require-imports -- the generator is plain CommonJS */
import type { INodeTypeDescription } from 'n8n-workflow';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';

const ops = require('./operations.js') as {
	declaredKinds(
		description: INodeTypeDescription,
		load: (resource: string) => unknown,
	): Record<string, string[]>;
	operationTables(
		description: INodeTypeDescription,
		entries: Record<string, unknown>,
		declared?: Record<string, string[]>,
	): { text: string; problems: string[]; keys: string[]; rows: unknown[] };
	pageTable(page: string): string | undefined;
	readmeSummary(): string | undefined;
	summaryTable(nodes: Array<{ name: string; rows: unknown[] }>): string;
	readMap(): Record<string, Record<string, unknown>>;
	unservedEndpoints(map: Record<string, Record<string, unknown>>): {
		checked: number;
		unserved: string[];
	};
};

const NODES: Array<[string, INodeTypeDescription, (resource: string) => unknown]> = [
	[
		'platform-posts.md',
		new PlatformPosts().description,
		(r) => require(`../../nodes/PlatformPosts/resources/${r}`),
	],
	[
		'catalog-node.md',
		new AdsCatalog().description,
		(r) => require(`../../nodes/AdsCatalog/resources/${r}`),
	],
	[
		'creatives-node.md',
		new AdsCreatives().description,
		(r) => require(`../../nodes/AdsCreatives/resources/${r}`),
	],
];

/**
 * The operation tables of docs/nodes/ are generated from the node descriptions and
 * docs/operations.json (`npm run build && node test/docs/operations.js --write`): a new or renamed
 * operation, field or option, or a changed credential kind, must reach the page.
 */
describe('the operation tables of the node pages', () => {
	const map = ops.readMap();

	describe.each(NODES)('%s', (page, description, load) => {
		const built = ops.operationTables(
			description,
			map[description.name] ?? {},
			ops.declaredKinds(description, load),
		);

		it('has an entry in docs/operations.json for every operation, and none for another', () => {
			expect(built.problems).toEqual([]);
			expect(built.keys.length).toBeGreaterThan(10);
		});

		it('shows the table the node description gives (regenerate: node test/docs/operations.js --write)', () => {
			expect(ops.pageTable(page)).toBe(built.text);
		});
	});

	it('docs/operations.md lists every operation of every node with its endpoints and credential kinds (regenerate: node test/docs/operations.js --write)', () => {
		const nodes = NODES.map(([, description, load]) => ({
			name: description.displayName,
			rows: ops.operationTables(
				description,
				map[description.name] ?? {},
				ops.declaredKinds(description, load),
			).rows,
		}));
		const summary = ops.readmeSummary();
		expect(summary).toBe(ops.summaryTable(nodes));
		// one row per operation, none left out
		const rows = summary!.split('\n').filter((l) => /^\| [^-|]/.test(l) && !l.startsWith('| Node'));
		expect(rows).toHaveLength(nodes.reduce((n, node) => n + node.rows.length, 0));
	});

	it('names only endpoints the sandbox (the service double of the e2e suite) serves', () => {
		const { checked, unserved } = ops.unservedEndpoints(map);
		expect(unserved).toEqual([]);
		expect(checked).toBeGreaterThan(100);
	});
});
