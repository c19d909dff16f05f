import type { IDataObject, INodeTypeDescription } from 'n8n-workflow';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { PlatformPostTriggers } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { normalizeDelivery } from '../../nodes/triggers/shared/events';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import { evalItemExpression, listFiles, readText } from '../helpers/files';

type Node = {
	name: string;
	type: string;
	typeVersion: number;
	parameters: IDataObject;
	onError?: string;
};
type Workflow = {
	nodes: Node[];
	connections: Record<string, Record<string, Array<Array<{ node: string; type: string }>>>>;
};

const examples: Array<[string, Workflow]> = listFiles('examples')
	.filter((f) => f.endsWith('.json'))
	.map((f) => [f, JSON.parse(readText(`examples/${f}`)) as Workflow]);
const flagship = examples.find(([f]) => f === 'new-post-to-scheduled-ad-post.json')![1];

/** The item the trigger emits for a post the sandbox (and the service) delivers. */
function item(payload: IDataObject, media = false): IDataObject {
	const includes = media
		? { media: [{ media_key: '3_1', type: 'photo', url: 'https://img.example/1.png' }] }
		: undefined;
	if (media) payload.attachments = { media_keys: ['3_1'] };
	const [event] = normalizeDelivery(
		{ data: { event_uuid: '1', event_type: 'post.create', payload, includes } },
		new Date(),
	);
	return event as unknown as IDataObject;
}

/** A Switch rule's boolean condition (`={{ ... }}`), evaluated as n8n would with `$json` set. */
function ruleMatches(rule: IDataObject, json: IDataObject): boolean {
	const conditions = (rule.conditions as { conditions: Array<{ leftValue: string }> }).conditions;
	return conditions.every(({ leftValue }) => evalItemExpression(leftValue, json) === true);
}

function pathOf(json: IDataObject): string {
	const sw = flagship.nodes.find((n) => n.name === 'Kind of Post')!;
	const rules = (sw.parameters.rules as { values: IDataObject[] }).values;
	const index = rules.findIndex((r) => ruleMatches(r, json));
	if (index < 0) return 'dropped';
	return flagship.connections['Kind of Post'].main[index].map((c) => c.node).join(',');
}

/** The version a node placed in the editor today gets: defaultVersion, else the newest. */
function defaultVersion(d: INodeTypeDescription): number {
	if (d.defaultVersion !== undefined) return d.defaultVersion;
	return Array.isArray(d.version) ? Math.max(...d.version) : d.version;
}

const PKG = 'n8n-nodes-platform';
const defaults = new Map(
	[
		new PlatformTriggerPosts(),
		new PlatformPostTriggers(),
		new PlatformPostsTrigger(),
		new PlatformPosts(),
		new AdsCatalog(),
		new AdsCreatives(),
	].map((n) => [`${PKG}.${n.description.name}`, defaultVersion(n.description)]),
);

describe('examples', () => {
	it("use every node of the package at the node's default version (what a node placed today gets)", () => {
		const ours = examples.flatMap(([file, wf]) =>
			wf.nodes
				.filter((n) => n.type.startsWith(`${PKG}.`))
				.map((n) => ({ file, node: n.name, type: n.type, typeVersion: n.typeVersion })),
		);
		expect(new Set(ours.map((n) => n.type)).size).toBeGreaterThanOrEqual(5);
		// n8n makes an AI tool of a node (type name + "Tool") with the node's own versions.
		const defaultOf = (type: string) => defaults.get(type.replace(/Tool$/, ''));
		const wrong = ours
			.filter((n) => n.typeVersion !== defaultOf(n.type))
			.map((n) => `${n.file}: ${n.node} (${n.type}) ${n.typeVersion}, not ${defaultOf(n.type)}`);
		expect(wrong).toEqual([]);
	});

	it('the flagship sends each kind of post down its own path, none dropped', () => {
		const post = { id: '9', text: 'Our autumn collection', author_id: '1' };
		expect(pathOf(item({ ...post }, true))).toBe('Download Post Image');
		expect(pathOf(item({ ...post }))).toBe('Schedule Text Ad Post');
		const ref = (type: string) => ({ ...post, referenced_tweets: [{ type, id: '5' }] });
		expect(pathOf(item(ref('replied_to')))).toBe('Skip Replies and Reposts');
		expect(pathOf(item(ref('retweeted')))).toBe('Skip Replies and Reposts');
		expect(pathOf(item(ref('quoted'), true))).toBe('Download Post Image');
		expect(pathOf(item(ref('quoted')))).toBe('Schedule Text Ad Post');
	});

	it('the flagship keeps replay statuses off the post paths and catches a failed download', () => {
		const trigger = flagship.connections['Platform Trigger'].main;
		expect(trigger[0].map((c) => c.node)).toEqual(['Kind of Post']);
		expect(trigger[1].map((c) => c.node)).toEqual(['Replay Finished']);
		const download = flagship.nodes.find((n) => n.name === 'Download Post Image')!;
		expect(download.onError).toBe('continueErrorOutput');
		expect(flagship.connections['Download Post Image'].main[1].map((c) => c.node)).toEqual([
			'Skip: Image Gone (Post Deleted?)',
		]);
	});

	it('the AI agent example gives the agent its model and Platform Posts as a tool whose only model-filled field is the text', () => {
		const agentExample = examples.find(([f]) => f === 'ai-agent-post.json')![1];
		const byType = (type: string) => agentExample.nodes.filter((n) => n.type === type);
		const [agent] = byType('@n8n/n8n-nodes-langchain.agent');
		const [tool] = byType('n8n-nodes-platform.platformPostsTool');
		const [model] = byType('@n8n/n8n-nodes-langchain.lmChatOpenAi');
		expect(tool.typeVersion).toBe(new PlatformPosts().description.defaultVersion);
		expect(tool.parameters).toMatchObject({ resource: 'post', operation: 'create' });
		const fromAi = JSON.stringify(tool.parameters).match(/\$fromAI\([^)]*\)/g);
		expect(fromAi).toEqual(["$fromAI('text', 'The text of the post', 'string')"]);
		// Chat completions: what every OpenAI-compatible server (and the e2e suite's stub) answers.
		expect(model.parameters.responsesApiEnabled).toBe(false);
		const into = (from: Node, type: string) =>
			agentExample.connections[from.name][type].flat().map((c) => [c.node, c.type]);
		expect(into(tool, 'ai_tool')).toEqual([[agent.name, 'ai_tool']]);
		expect(into(model, 'ai_languageModel')).toEqual([[agent.name, 'ai_languageModel']]);
	});
});

/* eslint-disable @typescript-eslint/no-require-imports -- the e2e fixtures and the sandbox are plain CommonJS */
const fixtures = require('../../e2e/lib/fixtures') as {
	exampleOverrides(url: string): Record<string, Record<string, Record<string, unknown>>>;
	sandboxExamples(url: string): Workflow[];
};
const { DEFAULT_KEYS } = require('../../sandbox/server') as {
	DEFAULT_KEYS: Record<string, string>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const SANDBOX_URL = 'http://127.0.0.1:5680';

/** What only a sandbox answers: its addresses and the ids it made up for its one account. */
const SANDBOX_HOST =
	/sandbox\.example|\b127\.0\.0\.1\b|\blocalhost\b|\b0\.0\.0\.0\b|\[::1\]|\/_sandbox\//i;
const SANDBOX_IDS = new Set([
	DEFAULT_KEYS.userId,
	DEFAULT_KEYS.adsAccountId,
	DEFAULT_KEYS.username,
]);

/** Every string of a node's parameters, with its dotted path. */
function strings(value: unknown, at = ''): Array<[string, string]> {
	if (typeof value === 'string') return [[at, value]];
	if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}.${i}`));
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([k, v]) => strings(v, at ? `${at}.${k}` : k));
	return [];
}

/**
 * What in a workflow only works against the sandbox: a sandbox address, one of the sandbox's ids, or an id typed into the workflow (a literal of digits,
 * a literal id in one of our nodes' resource locators), which no builder's account has.
 */
function sandboxOnly(file: string, wf: Workflow): string[] {
	const out: string[] = [];
	for (const n of wf.nodes) {
		for (const [p, v] of strings(n.parameters)) {
			const where = `${file}: ${n.name} › ${p}`;
			if (SANDBOX_HOST.test(v)) out.push(`${where}: a sandbox address (${v.slice(0, 60)})`);
			const literal = !v.startsWith('=');
			if (literal && SANDBOX_IDS.has(v.trim())) out.push(`${where}: the sandbox's id ${v}`);
			else if (literal && n.type !== 'n8n-nodes-base.stickyNote' && /^\d{5,19}$/.test(v.trim()))
				out.push(`${where}: a typed-in id ${v}`);
			else if (literal && p.endsWith('.value') && v && n.type.startsWith('n8n-nodes-platform.')) {
				const rl = p
					.split('.')
					.slice(0, -1)
					.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], n.parameters) as {
					__rl?: boolean;
					mode?: string;
				};
				if (rl?.__rl && rl.mode === 'id') out.push(`${where}: a typed-in id ${v}`);
			}
		}
	}
	return out;
}

describe('examples run on a real account once the first note is followed', () => {
	it('hold no sandbox address and no made-up id (npm start sets those, and only where it names)', () => {
		expect(examples.flatMap(([file, wf]) => sandboxOnly(file, wf))).toEqual([]);
	});

	it('the check finds a sandbox address, a sandbox id and a typed-in id, and passes what npm start sets', () => {
		const wf = (parameters: IDataObject): Workflow => ({
			nodes: [{ name: 'N', type: 'n8n-nodes-platform.adsCreatives', typeVersion: 1, parameters }],
			connections: {},
		});
		expect(
			sandboxOnly('x.json', wf({ url: 'https://sandbox.example/_sandbox/sample.png' })),
		).toHaveLength(1);
		expect(sandboxOnly('x.json', wf({ url: 'http://localhost:5680/x' }))).toHaveLength(1);
		expect(sandboxOnly('x.json', wf({ user: DEFAULT_KEYS.userId }))).toHaveLength(1);
		expect(sandboxOnly('x.json', wf({ user: '2244994945' }))).toHaveLength(1);
		expect(
			sandboxOnly('x.json', wf({ accountId: { __rl: true, mode: 'id', value: 'abc123x' } })),
		).toHaveLength(1);
		expect(
			sandboxOnly('x.json', wf({ accountId: { __rl: true, mode: 'list', value: '' }, url: '' })),
		).toEqual([]);
		// What npm start sets is where the sandbox goes: the sandbox copy breaks the rule there only.
		const sandboxCopies = fixtures.sandboxExamples(SANDBOX_URL);
		const found = sandboxCopies.flatMap((w) =>
			sandboxOnly('none.json', w).map((p) => p.split(': ')[1]),
		);
		const set = Object.values(fixtures.exampleOverrides(SANDBOX_URL)).flatMap((nodes) =>
			Object.entries(nodes).flatMap(([node, params]) =>
				Object.keys(params).map((p) => `${node} › ${p}`),
			),
		);
		expect(found.length).toBeGreaterThanOrEqual(5);
		expect(found.filter((f) => !set.some((s) => f === s || f.startsWith(`${s}.`)))).toEqual([]);
	});

	it('npm start sets only parameters the examples have', () => {
		const overrides = fixtures.exampleOverrides(SANDBOX_URL);
		const missing: string[] = [];
		for (const [file, nodes] of Object.entries(overrides)) {
			const wf = examples.find(([f]) => f === file)?.[1];
			if (!wf) {
				missing.push(`${file}: no such example`);
				continue;
			}
			for (const [name, params] of Object.entries(nodes)) {
				const n = wf.nodes.find((x) => x.name === name);
				for (const p of Object.keys(params))
					if (!n || strings(n.parameters).every(([at]) => at !== p && !at.startsWith(`${p}.`)))
						missing.push(`${file}: ${name} › ${p}`);
			}
		}
		expect(missing).toEqual([]);
	});

	it('nightly product push: Test Now ends at a no-op unless its switch is on; the nightly run pushes', () => {
		const wf = examples.find(([f]) => f === 'nightly-product-push.json')![1];
		const next = (name: string, output = 0) =>
			(wf.connections[name]?.main[output] ?? []).map((c) => c.node);
		expect(next('Test Now')).toEqual(['Settings']);
		expect(next('Every Night at 02:00')).toEqual(['Settings']);
		expect(next('Settings')).toEqual(['Push Now?']);
		expect(next('Push Now?', 0)).toEqual(['Find Catalog']);
		expect(next('Push Now?', 1)).toEqual(['Test Now: Nothing Pushed']);
		const settings = wf.nodes.find((n) => n.name === 'Settings')!;
		const switches = (
			settings.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }
		).assignments;
		expect(switches).toEqual([expect.objectContaining({ name: 'pushOnTestNow', value: false })]);
		const gate = wf.nodes.find((n) => n.name === 'Push Now?')!;
		const [condition] = (gate.parameters.conditions as { conditions: Array<{ leftValue: string }> })
			.conditions;
		const push = (mode: string, pushOnTestNow: boolean) =>
			evalItemExpression(condition.leftValue.replace(/\$execution\.mode/g, JSON.stringify(mode)), {
				pushOnTestNow,
			});
		// n8n's $execution.mode: 'test' for a run from the editor, 'production' otherwise.
		expect([push('test', false), push('test', true), push('production', false)]).toEqual([
			false,
			true,
			true,
		]);
	});

	it('the ad example names the watchdog it needs in its first note', () => {
		const note = flagship.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')!;
		expect(String(note.parameters.content)).toMatch(
			/webhook watchdog[\s\S]*platform-webhook-watchdog\.json/,
		);
	});
});
