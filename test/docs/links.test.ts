import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const links = require('./links.js') as {
	ROOT: string;
	anchorsOf(text: string): Set<string>;
	checkDocumentationUrls(root?: string): {
		urls: Array<{ file: string; url: string }>;
		problems: string[];
	};
	checkMarkdown(
		files: string[],
		root?: string,
	): { counts: Record<string, number>; problems: string[] };
	markdownFiles(root?: string): string[];
	repositoryUrl(root?: string): string;
	slug(heading: string): string;
};

/**
 * The docs are read on GitHub (docs/, DEVELOPING.md) and on npm and in n8n's Community Nodes dialog
 * (the README, whose links to the rest are absolute GitHub addresses of this repository): a moved
 * page or a renamed heading must not leave a link, or a node's Docs link, pointing nowhere.
 */
describe('the docs link check', () => {
	it('resolves every relative link and anchor of the Markdown docs', () => {
		const files = links.markdownFiles();
		const { counts, problems } = links.checkMarkdown(files);
		expect(problems).toEqual([]);
		// The README links to the other pages, so a check that found no links checked nothing.
		expect(files).toEqual(expect.arrayContaining(['README.md', 'DEVELOPING.md', 'CHANGELOG.md']));
		expect(counts.relative + counts.ownGitHub).toBeGreaterThan(20);
		console.info(`docs link check: ${JSON.stringify(counts)}`);
	});

	it('opens every node and credential documentationUrl on an existing page and heading', () => {
		const { urls, problems } = links.checkDocumentationUrls();
		expect(problems).toEqual([]);
		// five nodes and four credentials
		expect(urls.length).toBeGreaterThanOrEqual(9);
		for (const { url } of urls) expect(url).toMatch(/\/blob\/main\/docs\/[^#]+\.md#./);
	});

	it("links from the README to the other docs with the repository's absolute addresses", () => {
		const readme = fs.readFileSync(path.join(links.ROOT, 'README.md'), 'utf8');
		const relative = [...readme.matchAll(/\]\((?!https?:|mailto:|#)([^)]+)\)/g)].map((m) => m[1]);
		expect(relative).toEqual([]);
		for (const page of ['docs/production.md', 'docs/troubleshooting.md', 'DEVELOPING.md'])
			expect(readme).toContain(`${links.repositoryUrl()}/blob/main/${page}`);
	});

	describe('finds what is broken', () => {
		let root: string;
		beforeAll(() => {
			root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
			fs.writeFileSync(
				path.join(root, 'package.json'),
				JSON.stringify({ homepage: 'https://github.com/o/r' }),
			);
			fs.mkdirSync(path.join(root, 'docs'));
			fs.writeFileSync(
				path.join(root, 'docs', 'page.md'),
				'# Page\n\n## When a delivery is answered\n\n## Exactly once, and where it ends\n\n## Notes\n\n## Notes\n',
			);
		});
		afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

		const check = (text: string) => {
			fs.writeFileSync(path.join(root, 'README.md'), text);
			return links.checkMarkdown(['README.md'], root).problems;
		};

		it('a missing file, a missing heading, a missing page on GitHub', () => {
			expect(check('[a](docs/gone.md)')).toEqual([
				'README.md:1: docs/gone.md: no such file: docs/gone.md',
			]);
			expect(check('x\n[a](docs/page.md#when-a-delivery-is-sent)')).toEqual([
				'README.md:2: docs/page.md#when-a-delivery-is-sent: no heading #when-a-delivery-is-sent in docs/page.md',
			]);
			expect(check('[a](https://github.com/o/r/blob/main/docs/page.md#nope)')).toEqual([
				'README.md:1: https://github.com/o/r/blob/main/docs/page.md#nope: no heading #nope in docs/page.md',
			]);
			expect(check('[a](#nowhere)\n\n# Here')).toEqual([
				'README.md:1: #nowhere: no heading #nowhere in README.md',
			]);
		});

		it('passes what GitHub resolves, and skips code and other sites', () => {
			expect(
				check(
					[
						'[a](docs/page.md#when-a-delivery-is-answered) [b](docs/page.md#exactly-once-and-where-it-ends)',
						'[c](docs/page.md#notes-1) [d](https://github.com/o/r/blob/main/docs/page.md#page)',
						'[e](https://github.com/o/r/tree/main/docs) [f](https://example.com/x#y) [g](#here)',
						'`[h](gone.md)`',
						'```',
						'[i](gone.md)',
						'```',
						'## Here',
					].join('\n'),
				),
			).toEqual([]);
		});
	});

	it('slugs headings as GitHub does', () => {
		expect(links.slug('What `npm start` does')).toBe('what-npm-start-does');
		expect(links.slug('Keep the trigger alive under a flood: a proxy in front of n8n')).toBe(
			'keep-the-trigger-alive-under-a-flood-a-proxy-in-front-of-n8n',
		);
		expect(links.slug('Platform OAuth1 (Keys) API')).toBe('platform-oauth1-keys-api');
		expect(links.slug('Revoke App Bearer Token (version 1.1)')).toBe(
			'revoke-app-bearer-token-version-11',
		);
		expect(links.slug('Topology for 100 and 1,000 events/s (on paper)')).toBe(
			'topology-for-100-and-1000-eventss-on-paper',
		);
		expect([...links.anchorsOf('# A\n## A\n```\n# B\n```\n')]).toEqual(['a', 'a-1']);
	});
});
