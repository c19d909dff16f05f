/* eslint-disable @typescript-eslint/no-require-imports -- the checker is plain CommonJS */
import { readText } from '../helpers/files';

const links = require('./links.js') as {
	anchorsOf(text: string): Set<string>;
	checkDocumentationUrls(): { urls: Array<{ file: string; url: string }>; problems: string[] };
	checkFixture(files: Record<string, string>): string[];
	checkMarkdown(files: string[]): { counts: Record<string, number>; problems: string[] };
	markdownFiles(): string[];
	repositoryUrl(): string;
	slug(heading: string): string;
};

/**
 * The docs are read on GitHub (docs/, DEVELOPING.md) and on npm and in n8n's Community Nodes dialog
 * (the README, whose links to the rest are absolute GitHub addresses of this repository): a moved
 * page or a renamed heading must not leave a link, or a node's Docs link, pointing nowhere.
 * `node test/docs/links.js` prints what the check covers.
 */
describe('the docs link check', () => {
	it('resolves every relative link and anchor of the Markdown docs', () => {
		const files = links.markdownFiles();
		const { counts, problems } = links.checkMarkdown(files);
		expect(problems).toEqual([]);
		// The README links to the other pages, so a check that found no links checked nothing.
		expect(files).toEqual(expect.arrayContaining(['README.md', 'DEVELOPING.md', 'CHANGELOG.md']));
		expect(counts.relative + counts.ownGitHub).toBeGreaterThan(20);
		expect(counts.anchors).toBeGreaterThan(20);
	});

	it('opens every node and credential documentationUrl on an existing page and heading', () => {
		const { urls, problems } = links.checkDocumentationUrls();
		expect(problems).toEqual([]);
		// five nodes and four credentials
		expect(urls.length).toBeGreaterThanOrEqual(9);
		for (const { url } of urls) expect(url).toMatch(/\/blob\/main\/docs\/[^#]+\.md#./);
	});

	it("links from the README to the other docs with the repository's absolute addresses", () => {
		const readme = readText('README.md');
		const relative = [...readme.matchAll(/\]\((?!https?:|mailto:|#)([^)]+)\)/g)].map((m) => m[1]);
		expect(relative).toEqual([]);
		for (const page of ['docs/production.md', 'docs/troubleshooting.md', 'DEVELOPING.md'])
			expect(readme).toContain(`${links.repositoryUrl()}/blob/main/${page}`);
	});

	describe('finds what is broken', () => {
		const page =
			'# Page\n\n## When a delivery is answered\n\n## Exactly once, and where it ends\n\n## Notes\n\n## Notes\n';
		const check = (text: string) => links.checkFixture({ 'README.md': text, 'docs/page.md': page });

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
