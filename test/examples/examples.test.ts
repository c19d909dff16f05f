import type { IDataObject, INodeTypeDescription } from 'n8n-workflow';

import { AdsCatalog } from '../../nodes/AdsCatalog/AdsCatalog.node';
import { AdsCreatives } from '../../nodes/AdsCreatives/AdsCreatives.node';
import { PlatformPostTriggers } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { normalizeDelivery } from '../../nodes/PlatformTrigger/events';
import { PlatformTriggerPosts } from '../../nodes/PlatformTrigger/PlatformTriggerPosts.node';
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
		const wrong = ours
			.filter((n) => n.typeVersion !== defaults.get(n.type))
			.map((n) => `${n.file}: ${n.node} (${n.type}) ${n.typeVersion}, not ${defaults.get(n.type)}`);
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
