/**
 * Conformance with the service's published contract: every operation of every node, under each
 * credential kind the node offers, in every variant of its choices (defaults; every multi-option
 * value, which covers the `*.fields` lists; each value of each single-choice field), run against the
 * sandbox, every request held against the contract's rule table (plus the documented additions in
 * sandbox/contract/prose.js, the one place that lists them). A request that breaks a rule fails this
 * test, naming the operation, the request and the rule. An operation may instead refuse a credential
 * kind before sending anything, naming the kind it needs. Every JSON answer the sandbox gives is held
 * to the contract's answer schema for its status the same way (the sandbox checks its own answers):
 * an answer that breaks it fails this test, naming the route, the status and the field.
 */
import type { IDataObject, INodeParameters, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { DEFAULT_OAUTH2_SCOPES } from '../../credentials/PlatformOAuth2Api.credentials';
import { PlatformPostTriggers as PlatformActivityStreamTrigger } from '../../nodes/PlatformPostTriggers/PlatformPostTriggers.node';
import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { PlatformTriggerPosts } from '../../nodes/PlatformTriggerPosts/PlatformTriggerPosts.node';
import {
	AUTH_KIND,
	type CaseResult,
	type Checker,
	optionValues,
	resolveParameters,
	runCase,
	type Sandbox,
	userTokenScopes,
	type SampleIds,
	startSandbox,
	variants,
} from './harness';
import { misfits, postsSchema, triggerSchema } from './outputSchemas';
import { postsRawSchema } from '../../scripts/schemas';
import { report, startCrcResponder } from './support';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rule table is plain JSON
const RULES = require('../../sandbox/contract/rules.json') as {
	operations: Record<string, { method: string; path: string }>;
};

let sb: Sandbox;
let checker: Checker;
let ids: SampleIds;
/** Answers the sandbox's CRC checks for the webhook URL the trigger and Admin register. */
let crc: { url: string; close(): Promise<void> };
let webhookUrl: string;

beforeAll(async () => {
	({ sb, checker, ids } = await startSandbox());
	crc = await startCrcResponder(() => sb.keys.consumerSecret);
	webhookUrl = crc.url;
	ids.webhookUrl = webhookUrl;
	// The user token holds what the OAuth 2.0 credential asks for by default: a scope the default
	// lacks is a request the service refuses for a user who kept the default.
	userTokenScopes.scopes = DEFAULT_OAUTH2_SCOPES.split(/\s+/).filter(Boolean);
});
afterAll(async () => {
	await sb.close();
	await crc.close();
});

function versionsOf(description: INodeTypeDescription): number[] {
	return Array.isArray(description.version) ? description.version : [description.version];
}

interface Plan {
	node: INodeType;
	label: string;
	/** The parameters that pick one case, before resolution. */
	cases(version: number): Array<{ label: string; chosen: INodeParameters }>;
	invoke(node: INodeType): (context: never) => Promise<unknown>;
	fixed: string[];
	extra?: IDataObject;
}

function operationCases(description: INodeTypeDescription, version: number) {
	const out: Array<{ label: string; chosen: INodeParameters }> = [];
	for (const authentication of optionValues(description, version, 'authentication', {}))
		for (const resource of optionValues(description, version, 'resource', { authentication }))
			for (const operation of optionValues(description, version, 'operation', {
				authentication,
				resource,
			}))
				out.push({
					label: `${resource} → ${operation}`,
					chosen: { authentication, resource, operation },
				});
	return out;
}

const posts = new PlatformPosts();
const pollTrigger = new PlatformPostsTrigger();
const webhookTrigger = new PlatformTriggerPosts();
const streamTrigger = new PlatformActivityStreamTrigger();

const PLANS: Plan[] = [
	{
		node: posts,
		label: 'Platform Posts',
		cases: (version) => operationCases(posts.description, version),
		invoke: (node) => async (context) => await node.execute!.call(context),
		fixed: ['authentication', 'resource', 'operation'],
	},
	{
		node: pollTrigger,
		label: 'Platform Poll Trigger',
		cases: (version) =>
			optionValues(pollTrigger.description, version, 'authentication', {}).flatMap(
				(authentication) =>
					optionValues(pollTrigger.description, version, 'event', { authentication }).map(
						(event) => ({ label: `poll ${event}`, chosen: { authentication, event } }),
					),
			),
		// A first poll as an active workflow runs it (it keeps the position and gives nothing), then a
		// manual one (the latest few items), whose items are held against the output schema.
		invoke: (node) => async (context) => {
			await node.poll!.call(context);
			const manual = Object.create(context as object, {
				getMode: { value: () => 'manual' },
			}) as never;
			return await node.poll!.call(manual);
		},
		fixed: ['authentication', 'event'],
	},
	{
		node: webhookTrigger,
		label: 'Platform Trigger',
		cases: (version) =>
			optionValues(webhookTrigger.description, version, 'mode', {}).map((mode) => ({
				label: `activate (${mode})`,
				// A user's activity is what most workflows watch: the field n8n does not require, but
				// activation refuses to start without a user or a keyword.
				chosen: { mode, user: ids.userId },
			})),
		// Activation and deactivation, as n8n runs them: check, create, delete.
		invoke: (node) => async (context) => {
			const hooks = node.webhookMethods!.default!;
			await hooks.checkExists.call(context);
			await hooks.create!.call(context);
			await hooks.delete!.call(context);
		},
		fixed: ['mode'],
		extra: {
			getNodeWebhookUrl: () => webhookUrl,
			getActivationMode: () => 'activate',
		},
	},
	{
		node: streamTrigger,
		label: 'Platform Activity Stream Trigger',
		cases: (version) =>
			optionValues(streamTrigger.description, version, 'userAuthentication', {}).map(
				(userAuthentication) => ({
					label: `activate, connect, close (${userAuthentication || 'no user credential'})`,
					chosen: { userAuthentication, user: ids.userId },
				}),
			),
		// As a manual test runs it: subscribe, open the stream, then close (which removes the
		// subscriptions at once rather than after the grace a deactivation gets).
		invoke: (node) => async (context) => {
			const response = await node.trigger!.call(context);
			await response?.closeFunction?.();
		},
		fixed: ['userAuthentication'],
		extra: {
			getMode: () => 'manual',
			getActivationMode: () => 'manual',
			emit: () => undefined,
			emitError: () => undefined,
		},
	},
];

const results: Array<CaseResult & { node: string; version: number }> = [];

/**
 * Every operation in every variant is a few thousand runs against the sandbox: minutes on a loaded
 * 2-core machine, far past jest's default 5 s.
 */
describe.each(PLANS)('$label: every request conforms to the contract', (plan) => {
	for (const version of versionsOf(plan.node.description))
		it(`version ${version}`, async () => {
			const failures: string[] = [];
			// The same broken answer comes back in many variants: each is named once.
			const answerFailures = new Set<string>();
			for (const c of plan.cases(version)) {
				const base = resolveParameters(plan.node.description, version, c.chosen, ids);
				for (const v of variants(plan.node.description, version, base, ids, plan.fixed)) {
					const result = await runCase(
						sb,
						checker,
						`${c.label} (${v.label})`,
						v.parameters,
						plan.invoke(plan.node),
						{ typeVersion: version, staticData: {}, extra: plan.extra },
					);
					results.push({ ...result, node: plan.label, version });
					for (const r of result.requests)
						for (const violation of r.violations)
							failures.push(
								`${plan.label} v${version} ${result.label} as ${result.authentication}: ${r.method} ${r.path} breaks ${violation.rule}: ${violation.message}`,
							);
					for (const a of result.answers)
						for (const violation of a.violations)
							answerFailures.add(
								`the answer to ${a.route} (${a.status}) breaks ${violation.rule}: ${violation.message}`,
							);
				}
			}
			expect(failures).toEqual([]);
			expect([...answerFailures].sort()).toEqual([]);
		}, 600_000);
});

/**
 * Fields the sandbox answers beyond the contract (DEVELOPING.md lists them): the output schemas,
 * generated from the contract, do not name them. By resource, or resource and operation.
 */
const SANDBOX_BEYOND_CONTRACT: Record<string, string[]> = {
	space: ['item.topic_ids'],
	community: ['item.access', 'item.description', 'item.join_policy', 'item.member_count'],
	compliance: ['item.resumable'],
	'chat.getPublicKeys': ['item.token_map.'],
	'communityNote.getManyWritten': ['item.note_info'],
};

describe('the output schemas the editor shows describe what the nodes output', () => {
	const items = (output: unknown) =>
		((Array.isArray(output) ? output[0] : undefined) ?? []) as Array<{ json: unknown }>;

	it('every item of every Platform Posts operation fits its schema (Output: Raw Response the answer)', () => {
		const misfit = new Set<string>();
		const checked = new Set<string>();
		for (const r of results.filter((x) => x.node === 'Platform Posts')) {
			const [, resource, operation, variant] = /^(\w+) → (\w+) \((.*)\)$/.exec(r.label) ?? [];
			const raw = /output=raw/.test(variant);
			const key = `${resource}.${operation}`;
			const schema = raw ? postsRawSchema(key) : postsSchema(r.version, resource, operation);
			const beyond = [
				...(SANDBOX_BEYOND_CONTRACT[resource] ?? []),
				...(SANDBOX_BEYOND_CONTRACT[key] ?? []),
			];
			for (const item of items(r.output)) {
				checked.add(key);
				for (const m of misfits(item.json, schema))
					if (!beyond.some((b) => m.startsWith(b.endsWith('.') ? b : `${b}:`)))
						misfit.add(`v${r.version} ${key}${raw ? ' (raw)' : ''}: ${m}`);
			}
		}
		expect([...misfit].sort()).toEqual([]);
		// The sandbox's sample ids give 85 of the 123 operations items; the answers property test holds
		// every operation's items of generated answers (test/contract/answersProperty.test.ts).
		expect(checked.size).toBeGreaterThanOrEqual(85);
	});

	it("every item of every Poll Trigger mode fits the trigger's schema", () => {
		const misfit = new Set<string>();
		const modes = new Set<string>();
		for (const r of results.filter((x) => x.node === 'Platform Poll Trigger'))
			for (const item of items(r.output)) {
				modes.add(r.label.replace(/ \(.*$/, ''));
				for (const m of misfits(item.json, triggerSchema('platformPostsTrigger', r.version)))
					misfit.add(`${r.label.replace(/ \(.*$/, '')}: ${m}`);
			}
		expect([...misfit].sort()).toEqual([]);
		// A manual poll of 4 of the 13 modes finds entries in the sandbox; the answers property test
		// holds every mode's items of generated answers.
		expect(modes.size).toBeGreaterThanOrEqual(4);
	});
});

describe('what the conformance run covered', () => {
	it('sent requests for every operation under at least one offered credential kind, and refused others by name', () => {
		const byOperation = new Map<string, CaseResult[]>();
		for (const r of results) {
			const key = `${r.node} v${r.version} ${r.label.replace(/ \(.*$/, '')}`;
			byOperation.set(key, [...(byOperation.get(key) ?? []), r]);
		}
		const silent: string[] = [];
		const unnamed: string[] = [];
		for (const [key, cases] of byOperation) {
			if (!cases.some((c) => c.requests.length || c.outside.length)) silent.push(key);
			for (const c of cases)
				if (
					c.refusedBeforeRequest &&
					/credential|authentication/i.test(c.refusedBeforeRequest) &&
					!/App-Only Bearer|app-only bearer|OAuth ?2|OAuth ?1|user-context|user credential/i.test(
						c.refusedBeforeRequest,
					)
				)
					unnamed.push(`${key} as ${c.authentication}: ${c.refusedBeforeRequest}`);
		}
		const requests = results.reduce((n, r) => n + r.requests.length, 0);
		const operations = new Set(results.flatMap((r) => r.requests.map((q) => q.operation)));
		const answers = results.flatMap((r) => r.answers);
		const broken = answers.filter((a) => a.violations.length);
		const kinds = new Set(results.map((r) => AUTH_KIND[r.authentication] ?? r.authentication));
		// The figures a closing note quotes.
		report(
			`conformance: ${byOperation.size} node operations, ${results.length} runs, ${requests} requests checked, ${operations.size} contract operations reached, ${answers.length} JSON answers checked (${broken.length} breaking the contract, from ${new Set(broken.map((a) => a.route)).size} routes), credential kinds ${[...kinds].join('/')}, ${results.filter((r) => r.refusedBeforeRequest).length} runs refused before any request`,
			results,
		);
		expect(silent).toEqual([]);
		expect(unnamed).toEqual([]);
	});

	it('reached every operation of the contract a workflow can use (143 of its 156)', () => {
		// The enterprise firehose, sample and compliance streams, the likes firehose and the document
		// itself are not for workflows.
		const notForWorkflows =
			/\/firehose\/|\/sample\/|\/sample10\/|\/compliance\/stream|^\/2\/likes\/|^\/2\/openapi\.json$/;
		const usable = Object.entries(RULES.operations)
			.filter(([, o]) => !notForWorkflows.test(o.path))
			.map(([id]) => id);
		const reached = new Set(results.flatMap((r) => r.requests.map((q) => q.operation)));
		expect(usable.filter((id) => !reached.has(id))).toEqual([]);
		expect(usable).toHaveLength(143);
	});
});
