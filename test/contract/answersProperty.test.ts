/**
 * Whatever the service answers within its published contract, the nodes read it without crashing:
 * every operation of Platform Posts (each resource and operation, under the first credential kind
 * it sends requests with) and every mode of the Poll Trigger (a first poll, then a later one from
 * the position the first kept) runs on answers generated from the contract's answer schema for the
 * status (the rule table's `responses`, with the documented additions of sandbox/contract/prose.js).
 * A fake transport serves them in place of the service for every request the operation sends. The
 * operation either gives items or fails with the node's own errors (NodeApiError,
 * NodeOperationError) naming the cause, never a TypeError from reading a shape it did not expect
 * (which the node reports as a NodeOperationError whose cause is that TypeError). ANSWERS_RUNS
 * (default 50) sets the answers per operation.
 */
import fc from 'fast-check';
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IHttpRequestOptions,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';

import { PlatformPosts } from '../../nodes/PlatformPosts/PlatformPosts.node';
import { PlatformPostsTrigger } from '../../nodes/PlatformPostsTrigger/PlatformPostsTrigger.node';
import { createContext } from '../helpers/context';
import { pollContext } from '../postsTrigger/helpers';
import { itemsFor, optionValues, resolveParameters, type SampleIds, variants } from './harness';
import { misfits, postsSchema, triggerSchema } from './outputSchemas';
import { postsRawSchema } from '../../scripts/schemas';
import { answersRuns, answersSeed } from './support';

/**
 * n8n-workflow's sleep returns at once where the node waits what an answer names (a media upload's
 * check_after_secs, up to minutes): the answers, not the waits, are under test. A stream read's
 * deadline (a sleep with an abort signal) still runs, the served stream ends long before it.
 */
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	return {
		...actual,
		sleep: async (ms: number, signal?: AbortSignal) =>
			signal ? await actual.sleep(ms, signal) : undefined,
	};
});

/* eslint-disable @typescript-eslint/no-require-imports -- the checker is plain CommonJS */
const { createChecker } = require('../../sandbox/contract/check') as {
	createChecker(): {
		table: { schemas: Record<string, Schema>; operations: Record<string, IDataObject> };
		match(method: string, path: string): { id?: string; op?: { responses?: Responses } };
		checkAnswer(answer: IDataObject): { violations: Array<{ message: string }> };
	};
};
/* eslint-enable @typescript-eslint/no-require-imports */

interface Schema {
	$ref?: string;
	type?: string;
	enum?: unknown[];
	format?: string;
	pattern?: string;
	required?: string[];
	properties?: Record<string, Schema>;
	items?: Schema;
	minItems?: number;
	maxItems?: number;
	minLength?: number;
	maxLength?: number;
	minimum?: number;
	maximum?: number;
	oneOf?: Schema[];
	anyOf?: Schema[];
	allOf?: Schema[];
	nullable?: boolean;
	/** The Problem's `type`: which schema each value selects (by name in the rule table). */
	discriminator?: { propertyName: string; mapping: Record<string, string> };
}
type Responses = Record<string, Record<string, Schema>>;

const checker = createChecker();
const { schemas } = checker.table;

/** Nesting kept beyond which only required fields are generated (the schemas reference themselves). */
const DEPTH = 3;

function resolve(schema: Schema): Schema {
	let s = schema;
	for (let i = 0; s.$ref && i < 20; i++) s = schemas[s.$ref] ?? {};
	return s;
}

const FALLBACK_TEXTS = ['Source: https://example.com/source', 'https://example.com', 'sample', '0'];

function stringOf(s: Schema): fc.Arbitrary<string> {
	if (s.format === 'date-time')
		return fc
			.date({
				min: new Date('2006-03-21T00:00:00Z'),
				max: new Date('2036-01-01T00:00:00Z'),
				noInvalidDate: true,
			})
			.map((d) => d.toISOString());
	if (s.pattern) {
		try {
			let re: RegExp;
			try {
				re = new RegExp(s.pattern, 'u');
			} catch {
				re = new RegExp(s.pattern);
			}
			const matching = fc.stringMatching(re);
			const { minLength, maxLength } = s;
			return minLength === undefined && maxLength === undefined
				? matching
				: matching.filter(
						(v) =>
							(minLength === undefined || v.length >= minLength) &&
							(maxLength === undefined || v.length <= maxLength),
					);
		} catch {
			// A pattern fast-check cannot generate from (the note text's look-ahead for a URL): a
			// few fixed texts it accepts.
			const re = new RegExp(s.pattern);
			const fits = FALLBACK_TEXTS.filter((t) => re.test(t));
			if (fits.length) return fc.constantFrom(...fits);
		}
	}
	return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 12, 12) });
}

/** An arbitrary of the values `schema` accepts (generated as the checker reads schemas). */
/** `selected`: generating the schema a discriminator chose, whose allOf names the base again. */
function arbitraryOf(schema: Schema, depth = 0, selected = false): fc.Arbitrary<unknown> {
	const s = resolve(schema);
	if (s.discriminator && !selected) {
		// One of the values the contract lists, with the fields of the schema it selects.
		const { propertyName, mapping } = s.discriminator;
		return fc.oneof(
			...Object.entries(mapping).map(([tag, name]) =>
				arbitraryOf({ $ref: name }, depth, true).map((v) =>
					v && typeof v === 'object' && !Array.isArray(v) ? { ...v, [propertyName]: tag } : v,
				),
			),
		);
	}
	const alternatives = s.oneOf ?? s.anyOf;
	if (alternatives?.length) return fc.oneof(...alternatives.map((a) => arbitraryOf(a, depth)));
	if (s.allOf?.length) {
		const parts = s.allOf.map((p) => arbitraryOf(p, depth, selected));
		return fc
			.tuple(...parts)
			.map((values) =>
				values.every((v) => v && typeof v === 'object' && !Array.isArray(v))
					? Object.assign({}, ...values)
					: values[0],
			);
	}
	if (s.enum?.length) {
		// The contract has enum values its own pattern refuses (reply_settings' mentionedUsers is
		// longer than ^[A-Za-z]{1,12}$): only the values both allow are generated.
		const fits = s.enum.filter(
			(v) =>
				typeof v !== 'string' ||
				((!s.pattern || new RegExp(s.pattern).test(v)) &&
					(s.maxLength === undefined || v.length <= s.maxLength)),
		);
		return fc.constantFrom(...(fits.length ? fits : s.enum));
	}
	const type = s.type ?? (s.properties || s.required ? 'object' : undefined);
	switch (type) {
		case 'object': {
			const required = s.required ?? [];
			const names = new Set([
				...required,
				...(depth < DEPTH ? Object.keys(s.properties ?? {}) : []),
			]);
			const model: Record<string, fc.Arbitrary<unknown>> = {};
			for (const name of names)
				model[name] = s.properties?.[name]
					? arbitraryOf(s.properties[name], depth + 1)
					: // A field the contract requires without describing it.
						fc.constant({});
			// An optional field is absent as often as present (fc.record leaves one out one time in
			// six): an answer without it is where a reading crashes, and an operation that needs
			// several answers without their `errors` (a stream rule's dry run, then the change) must
			// see them.
			const optional = [...names].filter((n) => !required.includes(n));
			return fc
				.tuple(
					fc.record(model, { requiredKeys: [...names] }),
					fc.array(fc.boolean(), { minLength: optional.length, maxLength: optional.length }),
				)
				.map(([value, kept]) =>
					Object.fromEntries(
						Object.entries(value).filter(([name]) => kept[optional.indexOf(name)] !== false),
					),
				);
		}
		case 'array': {
			const min = s.minItems ?? 0;
			const max = Math.max(min, Math.min(s.maxItems ?? min + 3, min + 3));
			return fc.array(s.items ? arbitraryOf(s.items, depth + 1) : fc.constant({}), {
				minLength: min,
				maxLength: depth < DEPTH ? max : min,
			});
		}
		case 'integer':
			return fc.integer({ min: s.minimum ?? 0, max: s.maximum ?? 1_000_000 });
		case 'number':
			return fc.double({
				min: s.minimum ?? 0,
				max: s.maximum ?? 1_000_000,
				noNaN: true,
				noDefaultInfinity: true,
			});
		case 'boolean':
			return fc.boolean();
		case 'string':
			return stringOf(s);
		default:
			return fc.oneof(fc.string(), fc.integer(), fc.boolean());
	}
}

/** The contract's success answer (status and JSON schema) of the operation a request names. */
function successOf(
	method: string,
	path: string,
): { id?: string; status?: number; schema?: Schema } {
	const found = checker.match(method, path);
	const responses = found.op?.responses ?? {};
	const status = Object.keys(responses).find((s) => /^2/.test(s));
	return {
		id: found.id,
		status: status ? Number(status) : undefined,
		schema: status ? responses[status]['application/json'] : undefined,
	};
}

/** One arbitrary per contract operation, built once: fc.gen replays a run from the same factory. */
const factories = new Map<string, () => fc.Arbitrary<unknown>>();
function factoryFor(id: string, schema: Schema): () => fc.Arbitrary<unknown> {
	let factory = factories.get(id);
	if (!factory) {
		const arbitrary = arbitraryOf(schema);
		factory = () => arbitrary;
		factories.set(id, factory);
	}
	return factory;
}

const RUNS = answersRuns();
const SEED = answersSeed();

/** Sample ids for the fields a saved workflow fills (the answers are generated, so any fit). */
const IDS: SampleIds = {
	userId: '2244994945',
	username: 'sample_user',
	postId: '1460323737035677698',
	webhookId: '1790000000000000001',
	subscriptionId: '1790000000000000002',
	mediaId: '1790000000000000003',
	mediaKey: '3_1790000000000000003',
	newsId: '1790000000000000004',
	conversationId: '2244994945-1000000002',
	spaceId: '1DXxyRYNejbKM',
	communityId: '1600000000000000001',
	complianceJobId: '1700000000000000001',
	dmEventId: '1790000000000000005',
	mediaHashKey: 'rByqeHiVlD',
	bookmarkFolderId: '1800000000000000001',
	listId: '1900000000000000001',
	webhookUrl: 'https://example.com/hooks/platform',
};

interface Served {
	/** The requests answered, as `METHOD path`. */
	requests: string[];
}

/**
 * Replaces the context's transport (n8n's httpRequest and httpRequestWithAuthentication) with one
 * that answers each request with a value generated for its own contract operation: no sockets, so
 * thousands of runs fit the budget. A request outside the contract (the media upload interface, a
 * token endpoint) gets an empty object, one the contract declares without a JSON answer an empty body.
 */
function serveGenerated(
	context: unknown,
	answer: (method: string, path: string) => { status: number; body: unknown },
): Served {
	const served: Served = { requests: [] };
	const helpers = (context as { helpers: IDataObject }).helpers;
	const respond = async (opts: IHttpRequestOptions) => {
		const url = new URL(/^https?:/i.test(opts.url) ? opts.url : `${opts.baseURL ?? ''}${opts.url}`);
		const method = (opts.method ?? 'GET').toUpperCase();
		served.requests.push(`${method} ${url.pathname}`);
		const first = answer(method, url.pathname);
		const status = first.status;
		let body = first.body;
		if (opts.encoding === 'stream') {
			// A stream carries one answer per line, with a blank keep-alive line between them.
			const lines = [body, answer(method, url.pathname).body].map(
				(b) => `${JSON.stringify(b)}\r\n\r\n`,
			);
			body = {
				async *[Symbol.asyncIterator]() {
					for (const line of lines) yield Buffer.from(line);
				},
				destroy: () => undefined,
			};
		} else if (opts.encoding === 'arraybuffer' && !Buffer.isBuffer(body))
			// A file's bytes (a chat media download): whatever came, as bytes.
			body = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
		return opts.returnFullResponse ? { statusCode: status, headers: {}, body } : body;
	};
	helpers.httpRequest = respond;
	helpers.httpRequestWithAuthentication = async (_type: string, opts: IHttpRequestOptions) =>
		await respond(opts);
	return served;
}

function generatedAnswers(gen: fc.GeneratorValue) {
	return (method: string, path: string) => {
		const { id, status, schema } = successOf(method, path);
		if (!id) return { status: 200, body: {} };
		if (!schema) return { status: status ?? 200, body: '' };
		return { status: status ?? 200, body: gen(factoryFor(id, schema)) };
	};
}

/** An outcome the property allows: items, or the node's own error naming what went wrong. */
function expectReadable(error: unknown, output: unknown) {
	if (error !== undefined) {
		if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) throw error;
		// The node's errors keep a programming error (a TypeError) as their cause.
		const cause = (error as { cause?: unknown }).cause;
		if (
			cause instanceof TypeError ||
			cause instanceof RangeError ||
			cause instanceof ReferenceError
		)
			throw cause;
		expect(error.message.length).toBeGreaterThan(0);
		return;
	}
	if (output === null) return;
	expect(Array.isArray(output)).toBe(true);
	for (const branch of output as unknown[][])
		for (const item of branch) expect(typeof (item as { json: unknown }).json).toBe('object');
}

const posts = new PlatformPosts();
const pollTrigger = new PlatformPostsTrigger();

function latestVersion(node: INodeType): number {
	const v = node.description.version;
	return Array.isArray(v) ? Math.max(...v) : v;
}

interface Operation {
	label: string;
	/** The parameters a saved workflow holds, one per credential kind the operation offers. */
	choices: INodeParameters[];
}

/** Every resource and operation of Platform Posts, with the credential kinds that offer each. */
function postsOperations(): Operation[] {
	const { description } = posts;
	const version = latestVersion(posts);
	const byLabel = new Map<string, Operation>();
	for (const authentication of optionValues(description, version, 'authentication', {}))
		for (const resource of optionValues(description, version, 'resource', { authentication }))
			for (const operation of optionValues(description, version, 'operation', {
				authentication,
				resource,
			})) {
				const label = `${resource} → ${operation}`;
				const entry = byLabel.get(label) ?? { label, choices: [] };
				entry.choices.push(
					resolveParameters(description, version, { authentication, resource, operation }, IDS),
				);
				byLabel.set(label, entry);
			}
	return [...byLabel.values()];
}

/** Every mode of the Poll Trigger, with the credential kinds that offer each. */
function pollModes(): Operation[] {
	const { description } = pollTrigger;
	const version = latestVersion(pollTrigger);
	const byLabel = new Map<string, Operation>();
	for (const authentication of optionValues(description, version, 'authentication', {}))
		for (const event of optionValues(description, version, 'event', { authentication })) {
			const entry = byLabel.get(event) ?? { label: event, choices: [] };
			entry.choices.push(resolveParameters(description, version, { authentication, event }, IDS));
			byLabel.set(event, entry);
		}
	return [...byLabel.values()];
}

async function runPosts(parameters: INodeParameters, answer: ReturnType<typeof generatedAnswers>) {
	const built = createContext({
		parameters: parameters as IDataObject,
		items: itemsFor(parameters),
		typeVersion: latestVersion(posts),
	});
	const served = serveGenerated(built.context, answer);
	let error: unknown;
	let output: unknown;
	try {
		output = await posts.execute.call(built.context);
	} catch (e) {
		error = e;
	}
	return { served, error, output };
}

/** A first poll, then a later one from the position the first kept (the same static data). */
async function runPoll(parameters: INodeParameters, answer: ReturnType<typeof generatedAnswers>) {
	const staticData: IDataObject = {};
	const outcomes: Array<{ error?: unknown; output?: unknown }> = [];
	const requests: string[] = [];
	let positioned = false;
	for (let round = 0; round < 2; round++) {
		// The later poll starts from what the first kept (the subject's id, the newest entry seen).
		if (round === 1) positioned = Object.keys(staticData).length > 0;
		const built = pollContext(parameters as IDataObject, staticData);
		const served = serveGenerated(built.context, answer);
		const outcome: { error?: unknown; output?: unknown } = {};
		try {
			outcome.output = await pollTrigger.poll!.call(built.context);
		} catch (e) {
			outcome.error = e;
		}
		outcomes.push(outcome);
		requests.push(...served.requests);
		// A first poll that failed keeps no position: there is no later poll to run.
		if (outcome.error !== undefined) break;
	}
	return { requests, outcomes, positioned };
}

/**
 * The parameters of the first credential kind under which the operation sends a request (others may
 * refuse before sending, naming the kind they need): the answers are what the property is about.
 */
async function sendingChoice(
	node: INodeType,
	operation: Operation,
	fixed: string[],
	sends: (parameters: INodeParameters) => Promise<boolean>,
): Promise<INodeParameters | undefined> {
	// The defaults first; where they send nothing (an update with no field to change), the first
	// variant of the harness's that does.
	for (const round of ['defaults', 'variants'])
		for (const base of operation.choices) {
			const candidates =
				round === 'defaults'
					? [base]
					: variants(node.description, latestVersion(node), base, IDS, fixed)
							.slice(1)
							.map((v) => v.parameters);
			for (const parameters of candidates) if (await sends(parameters)) return parameters;
		}
	return undefined;
}

const emptyAnswers = (method: string, path: string) => {
	const { status } = successOf(method, path);
	return { status: status ?? 200, body: {} };
};

const POSTS_OPERATIONS = postsOperations();
const POLL_MODES = pollModes();

/** A whole file of a few thousand runs on a loaded 2-core machine: far past jest's default 5 s. */
const TIMEOUT = 120_000;

describe('Platform Posts reads every answer the contract allows', () => {
	it('enumerates every resource and operation', () => {
		expect(POSTS_OPERATIONS.length).toBeGreaterThan(100);
	});

	it.each(POSTS_OPERATIONS)(
		'$label',
		async (operation) => {
			const parameters = await sendingChoice(
				posts,
				operation,
				['authentication', 'resource', 'operation'],
				async (p) => (await runPosts(p, emptyAnswers)).served.requests.length > 0,
			);
			expect(parameters).toBeDefined();
			// The items fit the operation's shipped output schema (the pages as sent, the answer's).
			const [resource, name] = operation.label.split(' → ');
			const schema =
				parameters!.output === 'raw'
					? postsRawSchema(`${resource}.${name}`)
					: postsSchema(latestVersion(posts), resource, name);
			let gave = 0;
			await fc.assert(
				fc.asyncProperty(fc.gen(), async (gen) => {
					const { served, error, output } = await runPosts(parameters!, generatedAnswers(gen));
					expect(served.requests.length).toBeGreaterThan(0);
					expectReadable(error, output);
					if (error === undefined) gave++;
					if (error === undefined && Array.isArray(output))
						for (const item of (output as Array<Array<{ json: unknown }>>)[0] ?? [])
							expect(misfits(item.json, schema)).toEqual([]);
				}),
				{ numRuns: RUNS, seed: SEED, endOnFailure: true },
			);
			// Answers the operation reads to the end were among the runs, not only ones it refuses
			// (an `errors` list, a missing id): every operation gives items in about a fifth of them
			// or more; a handful of runs, ANSWERS_RUNS below 10, may have none.
			if (RUNS >= 10) expect(gave).toBeGreaterThan(0);
		},
		TIMEOUT,
	);
});

describe('the Poll Trigger reads every answer the contract allows, on a first and a later poll', () => {
	it('enumerates its 13 modes', () => {
		expect(POLL_MODES).toHaveLength(13);
	});

	it.each(POLL_MODES)(
		'$label',
		async (mode) => {
			const parameters = await sendingChoice(
				pollTrigger,
				mode,
				['authentication', 'event'],
				async (p) => (await runPoll(p, emptyAnswers)).requests.length > 0,
			);
			expect(parameters).toBeDefined();
			const schema = triggerSchema('platformPostsTrigger', latestVersion(pollTrigger));
			let positioned = 0;
			await fc.assert(
				fc.asyncProperty(fc.gen(), async (gen) => {
					const run = await runPoll(parameters!, generatedAnswers(gen));
					expect(run.requests.length).toBeGreaterThan(0);
					for (const { error, output } of run.outcomes) {
						expectReadable(error, output);
						// The items fit the trigger's shipped output schema.
						if (error === undefined && Array.isArray(output))
							for (const item of (output as Array<Array<{ json: unknown }>>)[0] ?? [])
								expect(misfits(item.json, schema)).toEqual([]);
					}
					if (run.positioned) positioned++;
				}),
				{ numRuns: RUNS, seed: SEED, endOnFailure: true },
			);
			// Later polls from a kept position were among the runs (most first polls keep one; a
			// handful of runs, ANSWERS_RUNS below 10, may all be answers that keep none).
			if (RUNS >= 10) expect(positioned).toBeGreaterThan(0);
		},
		TIMEOUT,
	);
});

describe('the generator makes answers the checker accepts (the property is about the contract’s answers)', () => {
	it.each([
		['GET', '/2/spaces/1DXxyRYNejbKM'],
		['GET', '/2/news/search'],
		['GET', '/2/tweets/1460323737035677698'],
		['GET', '/2/notes/search/notes_written'],
		['POST', '/2/webhooks'],
	])('%s %s', (method, path) => {
		const { schema } = successOf(method, path);
		fc.assert(
			fc.property(arbitraryOf(schema!), (body) => {
				expect(
					checker.checkAnswer({ method, path, status: 200, body: body as IDataObject }).violations,
				).toEqual([]);
			}),
			{ numRuns: 50, seed: SEED },
		);
	});
});
