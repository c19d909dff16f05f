import * as ts from 'typescript';
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { PlatformPostTriggers } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import { listFiles, readText } from '../helpers/files';
import { versionMatches } from './surface';

/**
 * Every path through the editor that a message or a page names ("Platform Posts › Admin (App-Only) ›
 * Delete Webhook", "Options › When Products Are Rejected") exists in the editor: each step is a label
 * the editor shows, under the step before it. The valid paths come from the node descriptions of every
 * node and version: node display name › resource › operation › field › sub-field or option value
 * (a node without resources: node › field › ...). A written path may start at any step of such a
 * path ("Catalog › Get Many", "Options › Concurrency").
 *
 * What counts as a written path: labels joined by " › ", " → " or " > " (a space on each side),
 * emphasis (`*`) removed. A label is the longest label of the descriptions the text holds at that
 * place, else a run of capitalised words (digits and hyphens inside, an optional parenthesis that
 * starts with a capital: "Admin (App-Only)"). A path is checked when its first label is one of ours:
 * a node's display name, a resource (also without its parenthesis: "Admin"), or a collection field
 * ("Options", "Additional Fields"). Other arrows (n8n's own "Settings → Community Nodes", an example
 * workflow's "Run Now → Download Image") start with no such label and are left alone.
 *
 * Scanned: every string literal and template literal of nodes/ (comments are not messages), README.md,
 * CHANGELOG.md and docs/.
 */

const DESCRIPTIONS: INodeTypeDescription[] = [
	new PlatformTriggerPosts().description,
	new PlatformPostTriggers().description,
	new PlatformPostsTrigger().description,
	new PlatformPosts().description,
	new AdsCatalog().description,
	new AdsCreatives().description,
];

function values(rules: Record<string, unknown> | undefined, key: string): unknown[] | undefined {
	const v = rules?.[key];
	return v === undefined ? undefined : (v as unknown[]);
}

/** Whether the field exists in this version. */
function inVersion(p: INodeProperties, version: number): boolean {
	const showVersion = values(p.displayOptions?.show, '@version') as unknown[] | undefined;
	const hideVersion = values(p.displayOptions?.hide, '@version') as unknown[] | undefined;
	if (showVersion && !showVersion.some((c) => versionMatches(c, version))) return false;
	if (hideVersion && hideVersion.some((c) => versionMatches(c, version))) return false;
	return true;
}

/** Whether the editor shows the field in this version, for this resource and operation. */
function shown(p: INodeProperties, version: number, resource?: string, operation?: string) {
	const show = p.displayOptions?.show as Record<string, unknown> | undefined;
	const hide = p.displayOptions?.hide as Record<string, unknown> | undefined;
	if (!inVersion(p, version)) return false;
	for (const [key, value] of [
		['resource', resource],
		['operation', operation],
	] as const) {
		const wanted = values(show, key);
		if (wanted && (value === undefined || !wanted.includes(value))) return false;
		if (value !== undefined && values(hide, key)?.includes(value)) return false;
	}
	return true;
}

/** The label paths inside a field: the field, its sub-fields (collections) and its option names. */
function fieldPaths(p: INodeProperties, version: number): string[][] {
	const out: string[][] = [[p.displayName]];
	const options = (p.options ?? []) as Array<
		INodeProperties | INodePropertyCollection | INodePropertyOptions
	>;
	if (p.type === 'collection')
		for (const child of options as INodeProperties[])
			if (inVersion(child, version))
				for (const sub of fieldPaths(child, version)) out.push([p.displayName, ...sub]);
	if (p.type === 'fixedCollection')
		for (const group of options as INodePropertyCollection[]) {
			out.push([p.displayName, group.displayName]);
			for (const child of group.values ?? [])
				if (inVersion(child, version))
					for (const sub of fieldPaths(child, version))
						out.push([p.displayName, group.displayName, ...sub]);
		}
	if (p.type === 'options' || p.type === 'multiOptions')
		for (const o of options as INodePropertyOptions[]) out.push([p.displayName, o.name]);
	return out;
}

/** Every full path of a node in every version, from its display name down. */
function nodePaths(d: INodeTypeDescription): string[][] {
	const versions = Array.isArray(d.version) ? d.version : [d.version];
	const out: string[][] = [[d.displayName]];
	for (const version of versions) {
		const props = d.properties.filter((p) => inVersion(p, version));
		for (const p of props.filter((x) => shown(x, version)))
			for (const sub of fieldPaths(p, version)) out.push([d.displayName, ...sub]);
		for (const resourceField of props.filter((p) => p.name === 'resource'))
			for (const resource of (resourceField.options ?? []) as INodePropertyOptions[]) {
				const r = String(resource.value);
				const rPath = [d.displayName, resource.name];
				out.push(rPath);
				for (const p of props.filter((x) => x.name !== 'resource' && shown(x, version, r)))
					for (const sub of fieldPaths(p, version)) out.push([...rPath, ...sub]);
				for (const operationField of props.filter(
					(p) => p.name === 'operation' && shown(p, version, r),
				))
					for (const operation of (operationField.options ?? []) as INodePropertyOptions[]) {
						const o = String(operation.value);
						const oPath = [...rPath, operation.name];
						out.push(oPath);
						for (const p of props.filter(
							(x) => !['resource', 'operation'].includes(x.name) && shown(x, version, r, o),
						))
							for (const sub of fieldPaths(p, version)) out.push([...oPath, ...sub]);
					}
			}
	}
	return out;
}

const SEP = '\u0001';
const fullPaths = DESCRIPTIONS.flatMap(nodePaths);
/** Every run of two or more consecutive steps of a full path. */
const validPaths = new Set<string>();
for (const path of fullPaths)
	for (let i = 0; i < path.length; i++)
		for (let j = i + 2; j <= path.length; j++) validPaths.add(path.slice(i, j).join(SEP));
const labels = [...new Set(fullPaths.flat())].sort((a, b) => b.length - a.length);

/** First labels that make a written path ours: nodes, resources (also without their parenthesis), collections. */
const roots = new Set<string>();
for (const d of DESCRIPTIONS) {
	roots.add(d.displayName);
	// "Ads Catalog → ..." is about Platform Ads Catalog too (not "Posts" for Platform Posts).
	const short = d.displayName.replace(/^Platform /, '');
	if (short.includes(' ')) roots.add(short);
	for (const p of d.properties) {
		if (p.name === 'resource')
			for (const o of (p.options ?? []) as INodePropertyOptions[]) {
				roots.add(o.name);
				roots.add(o.name.replace(/\s*\(.*\)$/, ''));
			}
		if (p.type === 'collection' || p.type === 'fixedCollection') roots.add(p.displayName);
	}
}

/** Emphasis (`*`, `**`) marks where a label starts or ends: it becomes this boundary. */
const MARK = '\u0002';
const SEPARATOR_SOURCE = String.raw`${MARK}*\s+(?:>|→|›)\s+${MARK}*`;
const SEPARATOR = new RegExp(`^${SEPARATOR_SOURCE}`);
const CAPITALISED = String.raw`[A-Z0-9](?:[\w'’-]|\.(?=\w))*`;
const RUN = String.raw`${CAPITALISED}(?: ${CAPITALISED})*`;
const RUN_AT_END = new RegExp(String.raw`(?:^|[^\w'’-])(${RUN})$`);
const RUN_AT_START = new RegExp(String.raw`^(${RUN})(?![\w'’])`);
/** Where a sentence, a table cell or a parenthesis starts: its first word is capitalised anyway. */
const SENTENCE_START = /(?:^|[.!?:;|(]\s*|\n[\s*+-]*)$/;
const isWordChar = (c: string | undefined) => c !== undefined && /[\w'’-]/.test(c);
const knownLabels = new Set(labels);
const longer = (a?: string, b?: string) => ((b?.length ?? 0) > (a?.length ?? 0) ? b : a);

/**
 * The label that ends the text: the longer of the longest known label and the run of capitalised
 * words; a run that starts a sentence ("Use Catalog") without its first word when that is ours.
 */
function labelBefore(text: string): string | undefined {
	const known = labels.find(
		(l) => text.endsWith(l) && !isWordChar(text[text.length - l.length - 1]),
	);
	const run = RUN_AT_END.exec(text)?.[1];
	const label = longer(known, run);
	if (!run || label !== run || knownLabels.has(run) || roots.has(run)) return label;
	const rest = run.replace(/^\S+ /, '');
	const atSentenceStart = SENTENCE_START.test(text.slice(0, text.length - run.length));
	return rest !== run && roots.has(rest) && atSentenceStart ? rest : run;
}

/** The label that starts the text. */
function labelAfter(text: string): string | undefined {
	const known = labels.find((l) => text.startsWith(l) && !isWordChar(text[l.length]));
	return longer(known, RUN_AT_START.exec(text)?.[1]);
}

/** Every written path of the text (two or more labels), ours or not. */
function writtenPaths(raw: string): string[][] {
	const text = raw.replace(/\*+/g, MARK);
	const out: string[][] = [];
	const separators = new RegExp(SEPARATOR_SOURCE, 'g');
	let consumed = 0;
	for (let m = separators.exec(text); m; m = separators.exec(text)) {
		if (m.index < consumed) continue;
		const first = labelBefore(text.slice(0, m.index));
		if (!first) continue;
		const path = [first];
		let at = m.index + m[0].length;
		for (;;) {
			const next = labelAfter(text.slice(at));
			if (!next) break;
			path.push(next);
			at += next.length;
			const sep = SEPARATOR.exec(text.slice(at));
			if (!sep) break;
			at += sep[0].length;
		}
		consumed = at;
		if (path.length >= 2) out.push(path);
	}
	return out;
}

/** The written paths of ours that the editor does not have. */
function wrongPaths(text: string): string[] {
	return writtenPaths(text)
		.filter((p) => roots.has(p[0]) && !validPaths.has(p.join(SEP)))
		.map((p) => p.join(' › '));
}

/**
 * A Markdown page with its soft line breaks as spaces (a label may be wrapped: "Replay\nWebhook
 * Events"); a line that starts a list item, a table row, a heading or a quote stays a line.
 */
function pageText(file: string): string {
	return readText(file).replace(/[ \t]*\n[ \t]*(?=[^\s|#>*+-]|[*+-]\S)/g, ' ');
}

/** String and template literals of a TypeScript file (a template's expressions break its text). */
function literals(file: string): string[] {
	const source = ts.createSourceFile(file, readText(file), ts.ScriptTarget.Latest, true);
	const out: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
		else if (ts.isTemplateExpression(node))
			out.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('\n'));
		ts.forEachChild(node, visit);
	};
	visit(source);
	return out;
}

describe('the path syntax', () => {
	it('reads paths with each separator, labels with a parenthesis, and stops at the first word that is no label', () => {
		expect(
			writtenPaths('delete it (Platform Posts › Admin (App-Only) › Delete Webhook) and retry'),
		).toEqual([['Platform Posts', 'Admin (App-Only)', 'Delete Webhook']]);
		expect(writtenPaths('set Options > On Error to Continue to send')).toEqual([
			['Options', 'On Error'],
		]);
		expect(writtenPaths('Fix it in *Catalog* → *Get Many*.')).toEqual([['Catalog', 'Get Many']]);
		expect(writtenPaths('as output by Product > Push or Get Many')).toEqual([['Product', 'Push']]);
		expect(writtenPaths('if (a > b) return x → y')).toEqual([]);
		expect(writtenPaths('Setting *Options → Concurrency* fixes it')).toEqual([
			['Options', 'Concurrency'],
		]);
		expect(writtenPaths('| Use Catalog → Get Many to find it. |')).toEqual([
			['Catalog', 'Get Many'],
		]);
		expect(writtenPaths('(or Test Now) → Find Catalog → Your Products')).toEqual([
			['Find Catalog', 'Your Products'],
		]);
	});

	it('finds the wrong paths of ours and leaves the right ones and those of others alone', () => {
		expect(wrongPaths('set Options > On Error to Continue')).toEqual(['Options › On Error']);
		expect(wrongPaths('(Platform Posts > Admin > Webhook > Delete)')).toEqual([
			'Platform Posts › Admin › Webhook › Delete',
		]);
		expect(wrongPaths('Admin → Replay Webhook')).toEqual(['Admin › Replay Webhook']);
		expect(wrongPaths('Platform Posts › Admin (App-Only) › Delete Webhook')).toEqual([]);
		expect(wrongPaths('Options › When Products Are Rejected')).toEqual([]);
		expect(wrongPaths('Catalog > Get Many')).toEqual([]);
		expect(wrongPaths('**Settings → Community Nodes → Install**')).toEqual([]);
		expect(wrongPaths('Run Now → Download Image → Post With Image')).toEqual([]);
		expect(wrongPaths('Platform Ads Catalog → Product → Push')).toEqual([]);
		// The editor names the node Platform Ads Catalog.
		expect(wrongPaths('Ads Catalog → Product → Push')).toEqual(['Ads Catalog › Product › Push']);
	});
});

describe('every path through the editor that a message or a page names exists', () => {
	const sources = listFiles('nodes')
		.filter((f) => f.endsWith('.ts'))
		.map((f) => `nodes/${f}`);
	const pages = [
		'README.md',
		'CHANGELOG.md',
		...listFiles('docs')
			.filter((f) => f.endsWith('.md'))
			.map((f) => `docs/${f}`),
	];

	it('finds the paths it checks', () => {
		const ours = [...sources.flatMap(literals), ...pages.map(pageText)]
			.flatMap(writtenPaths)
			.filter((p) => roots.has(p[0]));
		expect(ours.length).toBeGreaterThan(10);
	});

	it.each(sources)('%s', (file) => {
		expect(literals(file).flatMap(wrongPaths)).toEqual([]);
	});

	it.each(pages)('%s', (file) => {
		expect(wrongPaths(pageText(file))).toEqual([]);
	});
});
