/* eslint-disable @typescript-eslint/no-require-imports -- the generator and the rule table are plain CommonJS / JSON */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { PlatformPostTriggers as PlatformActivityStreamTrigger } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { MODES } from '../../nodes/triggers/poll/modes';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import {
	ACTIVITY_EVENT_TYPES,
	LEGACY_ACTIVITY_EVENT_TYPES,
	wireEventType,
} from '../../nodes/shared/activity';
import { listFiles, readText } from '../helpers/files';

const figures = require('./figures.js') as {
	blocks(): Record<string, string>;
	blockIn(page: string, name: string): string | undefined;
	capacitySource(history?: string): {
		rows: Array<{ deployment: string; acknowledged: number; runs: string }>;
	};
	plan(source: { rows: Array<{ acknowledged: number; runs: string }> }): {
		perWebhookProcess: number;
		perWorker: number;
	};
	readPage(): string;
	walSource(): { trigger: Record<number, { bytes: number }> };
};

/** The pages users and operators read: no repository-internal commands, hashes or temporary paths. */
function userPages(): string[] {
	return [
		'README.md',
		...listFiles('docs')
			.filter((f) => f.endsWith('.md'))
			.map((f) => `docs/${f}`),
		...listFiles('deploy')
			.filter((f) => f === 'README.md' || f.endsWith('/README.md'))
			.map((f) => `deploy/${f}`),
	];
}

/** A page's text as a reader sees it: HTML comments (the generators' markers) are not shown. */
function shown(text: string): string {
	return text.replace(/<!--[\s\S]*?-->/g, '');
}

const WORDS: Record<string, number> = {
	one: 1,
	two: 2,
	three: 3,
	four: 4,
	five: 5,
	six: 6,
	seven: 7,
	eight: 8,
	nine: 9,
	ten: 10,
	eleven: 11,
	twelve: 12,
	thirteen: 13,
};

/** A count as the docs write it, in figures or in words. */
function count(text: string): number {
	return /^\d[\d,]*$/.test(text)
		? Number(text.replace(/,/g, ''))
		: (WORDS[text.toLowerCase()] ?? NaN);
}

/** Every count a regular expression's first group captures in a text. */
function counts(text: string, re: RegExp): number[] {
	return [...text.matchAll(re)].map((m) => count(m[1]));
}

/** The rows of the first Markdown table after a heading line that starts with `header`. */
function tableRows(page: string, header: string): string[][] {
	const lines = page.split('\n');
	const start = lines.findIndex((l) => l.startsWith(header));
	const rows: string[][] = [];
	for (let i = start + 2; start !== -1 && i < lines.length && lines[i].startsWith('|'); i++)
		rows.push(
			lines[i]
				.replace(/^\||\|$/g, '')
				.split('|')
				.map((c) => c.trim()),
		);
	return rows;
}

function property(description: INodeTypeDescription, test: (p: INodeProperties) => boolean) {
	const found = description.properties.find(test);
	if (!found) throw new Error(`${description.displayName}: no such property`);
	return found;
}

function versions(description: INodeTypeDescription): number[] {
	return Array.isArray(description.version) ? description.version : [description.version];
}

/** "1", "1 and 1.1", "1, 2 and 3" → numbers. */
function versionList(text: string): number[] {
	return (text.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
}

const posts = new PlatformPosts().description;
const trigger = new PlatformTriggerPosts().description;
const poll = new PlatformPostsTrigger().description;
const NODES: Array<{ description: INodeTypeDescription; page: string; readme: string }> = [
	{ description: posts, page: 'docs/nodes/platform-posts.md', readme: 'Platform Posts' },
	{ description: trigger, page: 'docs/nodes/platform-trigger.md', readme: 'Platform Trigger' },
	{
		description: new PlatformActivityStreamTrigger().description,
		page: 'docs/nodes/activity-stream-trigger.md',
		readme: 'Platform Activity Stream Trigger',
	},
	{
		description: poll,
		page: 'docs/nodes/platform-poll-trigger.md',
		readme: 'Platform Poll Trigger',
	},
	{
		description: new AdsCatalog().description,
		page: 'docs/nodes/catalog-node.md',
		readme: 'Ads Catalog',
	},
	{
		description: new AdsCreatives().description,
		page: 'docs/nodes/creatives-node.md',
		readme: 'Ads Creatives',
	},
];

/**
 * The counts the docs state (operations, modes, event types, versions) come from the code, so a page
 * that says "7 modes" beside a node with 13, or "every operation" beside 13 left out, fails here.
 */
describe('the counts the docs state match the code', () => {
	it('the Poll Trigger: every mode in its page and the README, and the number of modes', () => {
		const triggerOn = property(poll, (p) => p.displayName === 'Trigger On');
		const names = (triggerOn.options as INodePropertyOptions[]).map((o) => o.name);
		expect(names).toEqual(MODES.map((m) => m.name));
		const page = readText('docs/nodes/platform-poll-trigger.md');
		expect(tableRows(page, '| Trigger On |').map((r) => r[0])).toEqual(names);
		// "one of 13 modes": stated in the README, and nowhere a different number
		const stated = userPages().flatMap((f) =>
			counts(
				shown(readText(f)),
				/\b(\d+|[a-z]+teen|seven|eight|nine|ten|eleven|twelve) (?:poll )?modes\b/gi,
			),
		);
		expect(stated.length).toBeGreaterThan(0);
		expect(stated).toEqual(stated.map(() => MODES.length));
	});

	it('Platform Posts: the operations and resources its page counts', () => {
		const resources = property(posts, (p) => p.name === 'resource')
			.options as INodePropertyOptions[];
		const operations = resources.reduce((n, r) => {
			const field = property(
				posts,
				(p) => p.name === 'operation' && !!p.displayOptions?.show?.resource?.includes(r.value),
			);
			return n + (field.options as INodePropertyOptions[]).length;
		}, 0);
		const page = shown(readText('docs/nodes/platform-posts.md'));
		const stated = [...page.matchAll(/\b(\d+) operations in (\d+) resources\b/g)];
		expect(stated.map((m) => [Number(m[1]), Number(m[2])])).toEqual([
			[operations, resources.length],
		]);
		const summary = readText('docs/operations.md')
			.split('\n')
			.filter((l) => l.startsWith('| Platform Posts ›'));
		expect(summary).toHaveLength(operations);
	});

	it("the contract's operations no node calls: docs/operations.md lists exactly those, and counts them", () => {
		const rules = require('../../sandbox/contract/rules.json') as {
			operations: Record<string, { method: string; path: string }>;
		};
		const map = require('../../docs/operations.json') as Record<
			string,
			Record<string, { endpoints: string[] }>
		>;
		const norm = (method: string, path: string) =>
			`${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, ':')}`;
		// `GET /2/users/:id/{tweets,mentions}` stands for one path per alternative
		const concrete = (endpoint: string) => {
			const [method, pattern] = endpoint.split(' ');
			const alt = /\{([^}:]+,[^}]+)\}/.exec(pattern);
			const paths = alt
				? alt[1].split(',').map((a) => pattern.replace(alt[0], a.trim()))
				: [pattern];
			return paths.map((p) => norm(method, p));
		};
		const documented = new Set(
			Object.values(map).flatMap((entries) =>
				Object.values(entries).flatMap((e) => e.endpoints.flatMap(concrete)),
			),
		);
		const uncalled = Object.values(rules.operations)
			.map((o) => norm(o.method, o.path))
			.filter((k) => !documented.has(k))
			.sort();

		const page = shown(readText('docs/operations.md'));
		const section = page.slice(
			page.indexOf('## What no node calls'),
			page.indexOf('## Every operation,'),
		);
		const [leftOut, triggersOnly] = section.split(/only the triggers call/);
		const listed = (text: string) =>
			[...text.matchAll(/`(GET|POST|PUT|DELETE|PATCH) (\/[^`]+)`/g)].map((m) => norm(m[1], m[2]));
		expect([...listed(leftOut), ...listed(triggersOnly)].sort()).toEqual(uncalled);
		expect(counts(section, /has (\d+) operations/g)).toEqual([
			Object.keys(rules.operations).length,
		]);
		expect(counts(section, /all\s+of them but (\d+)/g)).toEqual([listed(leftOut).length]);
		expect(counts(section, /(\w+) operations only the triggers call/gi)).toEqual([
			listed(triggersOnly).length,
		]);
		// "143 of 156" where the maintainers' guide and the changelog count what a workflow can call
		const total = Object.keys(rules.operations).length;
		for (const file of ['DEVELOPING.md', 'CHANGELOG.md'])
			expect([
				file,
				[
					...readText(file).matchAll(
						/\b(\d+) of (\d+)\b(?=[^.\n]*(?:\n[^.\n]*)?(?:left out|firehose))/g,
					),
				].map((m) => [Number(m[1]), Number(m[2])]),
			]).toEqual([file, [[total - listed(leftOut).length, total]]]);
	});

	it('the Platform Trigger: the event types its page lists and counts, by version', () => {
		const events = property(trigger, (p) => p.name === 'events').options as INodePropertyOptions[];
		const stored = events.map((o) => String(o.value)).filter((v) => v !== '*');
		expect([...stored].sort()).toEqual([...ACTIVITY_EVENT_TYPES].sort());
		// the page names each type as the service does (`event_type`)
		const offered = stored.map(wireEventType);
		const legacy = LEGACY_ACTIVITY_EVENT_TYPES.map(wireEventType);
		const page = readText('docs/nodes/platform-trigger.md');
		const rows = tableRows(page, '| Events option |');
		const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
		expect(rows.flatMap((r) => names(r[1])).sort()).toEqual([...offered].sort());
		expect(
			rows
				.filter((r) => r[3] === 'every version')
				.flatMap((r) => names(r[1]))
				.sort(),
		).toEqual([...legacy].sort());
		// "all 22 types in version 3; versions 1 and 2 keep the 12", "all 22, including", "the twelve"
		const all = counts(page, /\ball (\d+)(?: types|, including)/g);
		const kept = counts(page, /\bkeep the (\w+) (?:marked|they subscribed)/g);
		expect(all.length).toBeGreaterThan(0);
		expect(all).toEqual(all.map(() => ACTIVITY_EVENT_TYPES.length));
		expect(kept.length).toBeGreaterThan(0);
		expect(kept).toEqual(kept.map(() => LEGACY_ACTIVITY_EVENT_TYPES.length));
	});

	it("every node's versions: its page's header and the README's Versions section", () => {
		const readme = readText('README.md');
		const section = readme.slice(
			readme.indexOf('## Versions'),
			readme.indexOf('\n## ', readme.indexOf('## Versions') + 1),
		);
		const names = NODES.map((n) => n.readme).sort((a, b) => b.length - a.length);
		// "Platform Posts 1.1 (…), Platform Trigger 2 (…) and 3 (…), Ads Catalog 2 (…)"
		const flat = section
			.replace(/\([^()]*\)/g, '')
			.replace(/\s+/g, ' ')
			.replace(/ ,/g, ',');
		const inReadme: Record<string, number[]> = {};
		for (const m of flat.matchAll(
			new RegExp(`(${names.join('|')}) ((?:\\d+(?:\\.\\d+)?(?:,? and |, | )?)+)`, 'g'),
		))
			inReadme[m[1]] = versionList(m[2]);
		for (const { description, page, readme: name } of NODES) {
			// "The *Platform Posts* node (versions 1 and 1.1)": the name the editor shows, not the type name.
			const header = new RegExp(
				`\\*${description.displayName}\\* node \\(versions? ([^)]*)\\)`,
			).exec(readText(page));
			expect([description.name, header && versionList(header[1])]).toEqual([
				description.name,
				versions(description),
			]);
			const later = versions(description).filter((v) => v !== 1);
			expect([name, inReadme[name] ?? []]).toEqual([name, later]);
			if (later.length) expect(description.defaultVersion).toBe(Math.max(...later));
		}
	});
});

/** Hashes, temporary paths and the harness's commands belong in DEVELOPING.md and the benchmark history. */
const INTERNAL: Array<[string, RegExp]> = [
	['a commit hash', /(?<![\w/.#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w/-])/],
	['a flock command', /\bflock\b/],
	['a temporary path', /(?<![\w.])\/tmp\//],
	['a "to be measured" marker', /to be measured|measured again\b/i],
	['a benchmark or script command', /\bnode (?:bench|scripts|test|e2e)\//],
	['a test or benchmark run', /\bnpm run (?:test:e2e|bench|explore)\b/],
	['a harness variable', /\b(?:E2E|BENCH|DEDUPE_RACE|EXPLORER)_[A-Z0-9_]+/],
];

function internalIn(file: string, text: string): string[] {
	const out: string[] = [];
	shown(text)
		.split('\n')
		.forEach((line, i) => {
			for (const [what, re] of INTERNAL)
				if (re.test(line)) out.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
		});
	return out;
}

describe('user pages hold no lab notebook', () => {
	it('README.md, docs/ and the deploy READMEs name no commit hash, flock, /tmp/ path, harness command or "to be measured"', () => {
		const pages = userPages();
		expect(pages).toEqual(
			expect.arrayContaining(['README.md', 'docs/production.md', 'deploy/nginx/README.md']),
		);
		expect(pages.flatMap((f) => internalIn(f, readText(f)))).toEqual([]);
	});

	it('finds what it looks for, and passes what is not', () => {
		const found = (line: string) => internalIn('p.md', line).map((p) => p.split(': ')[1]);
		expect(found('at commit `4b16f9a`')).toEqual(['a commit hash']);
		expect(found('`flock /tmp/heavy.lock env E2E_WORK=/tmp/x npm run test:e2e`')).toEqual([
			'a flock command',
			'a temporary path',
			'a test or benchmark run',
			'a harness variable',
		]);
		expect(found('they are to be measured again')).toEqual(['a "to be measured" marker']);
		expect(found('`BENCH_LAZY=on node bench/capacity.js`')).toEqual([
			'a benchmark or script command',
			'a harness variable',
		]);
		expect(found('<!-- generated by `node test/docs/figures.js --write` -->')).toEqual([]);
		expect(
			found(
				'media keys `3_1234567890`, ids 1234567890, sha256=abc, `npm install n8n-nodes-platform`, /webhook/abc',
			),
		).toEqual([]);
	});
});

/**
 * docs/production.md states each capacity and cost figure once, generated from bench/results
 * (`node test/docs/figures.js --write`); the other pages link to it.
 */
describe('the figures of docs/production.md come from bench/results', () => {
	const page = figures.readPage();

	it.each(Object.entries(figures.blocks()))(
		'the %s block is what bench/results gives (regenerate: node test/docs/figures.js --write)',
		(name, text) => {
			expect(figures.blockIn(page, name)).toBe(text);
		},
	);

	it("no page restates a figure of the blocks, or a webhook process's rate, outside them", () => {
		const source = figures.capacitySource();
		const plan = figures.plan(source);
		const wal = figures.walSource();
		const outside = (file: string) => {
			let text = shown(readText(file));
			if (file === 'docs/production.md') {
				text = figures.readPage();
				for (const name of Object.keys(figures.blocks()))
					text = text.replace(figures.blockIn(text, name) ?? '', '');
			}
			return text;
		};
		const restated = (text: string) => [
			...source.rows
				.map((r) => String(r.acknowledged))
				.filter((f) => new RegExp(`(?<![\\d.])${f.replace('.', '\\.')}(?![\\d.])`).test(text)),
			...[`${plan.perWebhookProcess} deliveries/s`, `${plan.perWorker} runs/s`].filter((f) =>
				text.includes(f),
			),
			...[2000, 500, 0]
				.map((ids) => `${(wal.trigger[ids].bytes / 1000).toFixed(1)} KB`)
				.filter((f) => text.includes(f)),
			...(text.match(
				/\b\d+(?:\.\d+)? ?(?:deliveries|calls|events)\/s\b[^.\n]{0,40}\b(?:per|a|one) (?:webhook|n8n) process|\b(?:webhook|n8n) process\w* (?:takes|took|absorbs)[^.\n]{0,40}\b\d+(?:\.\d+)? ?(?:deliveries|calls|events)\/s/g,
			) ?? []),
		];
		const problems = userPages().flatMap((f) => restated(outside(f)).map((r) => `${f}: ${r}`));
		expect(problems).toEqual([]);
	});

	it('the capacity figures name the PostgreSQL the run used, and no other', () => {
		const text = shown(figures.readPage());
		const versionsNamed = new Set(
			[...text.matchAll(/PostgreSQL (\d+)(?:\.\d+)?/g)].map((m) => m[1]),
		);
		expect([...versionsNamed]).toEqual(['17']);
	});
});
