/**
 * Whatever the service answers within its published contract, the node reads it without crashing:
 * for a few operations, answers generated from the contract's answer schema for the status (the
 * rule table's `responses`, with the documented additions of sandbox/contract/prose.js), served to
 * the node operation in place of the service. The operation either gives items or fails with the
 * node's own errors (NodeApiError, NodeOperationError), never a TypeError from reading a shape it
 * did not expect (which the node reports as a NodeOperationError whose cause is that TypeError).
 */
import fc from 'fast-check';
import nock from 'nock';
import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import { BASE } from '../helpers/context';
import { rl, run } from '../posts/helpers';

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
function arbitraryOf(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
	const s = resolve(schema);
	const alternatives = s.oneOf ?? s.anyOf;
	if (alternatives?.length) return fc.oneof(...alternatives.map((a) => arbitraryOf(a, depth)));
	if (s.allOf?.length) {
		const parts = s.allOf.map((p) => arbitraryOf(p, depth));
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
			return fc.record(model, { requiredKeys: required.filter((n) => names.has(n)) });
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

/** The contract's success answer of the operation a request names. */
function successSchema(method: string, path: string): Schema {
	const found = checker.match(method, path);
	const responses = found.op?.responses ?? {};
	const status = Object.keys(responses).find((s) => /^2/.test(s));
	if (!status) throw new Error(`the contract declares no success answer for ${method} ${path}`);
	return responses[status]['application/json'];
}

interface Case {
	label: string;
	method: 'GET' | 'POST';
	parameters: IDataObject;
	authentication?: string;
}

const CASES: Case[] = [
	{
		label: 'Space → Get (GET /2/spaces/:id)',
		method: 'GET',
		parameters: { resource: 'space', operation: 'get', spaceId: rl('1DXxyRYNejbKM') },
	},
	{
		label: 'News → Search (GET /2/news/search)',
		method: 'GET',
		parameters: { resource: 'news', operation: 'search', query: 'automation', limit: 10 },
	},
	{
		label: 'Post → Get (GET /2/tweets/:id)',
		method: 'GET',
		parameters: {
			resource: 'post',
			operation: 'get',
			postIds: '1460323737035677698',
			expansions: ['author_id'],
		},
	},
	{
		label: 'Community Note → Get Many Written (GET /2/notes/search/notes_written)',
		method: 'GET',
		parameters: {
			resource: 'communityNote',
			operation: 'getManyWritten',
			testMode: true,
			returnAll: false,
			limit: 5,
		},
	},
	{
		label: 'Admin → Create Webhook (POST /2/webhooks)',
		method: 'POST',
		parameters: {
			resource: 'admin',
			operation: 'createWebhook',
			url: 'https://n8n.example/webhook/abc/webhook',
		},
		authentication: 'platformBearerApi',
	},
];

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('the nodes read every answer the contract allows', () => {
	it.each(CASES)(
		'$label',
		async ({ method, parameters, authentication }) => {
			await fc.assert(
				fc.asyncProperty(fc.gen(), async (gen) => {
					nock.cleanAll();
					const answered: unknown[] = [];
					// Each request is answered with a value generated for its own operation.
					nock(BASE)
						.persist()
						.intercept(/^\/2\//, method)
						.query(true)
						.reply(200, (uri) => {
							const path = new URL(uri, BASE).pathname;
							const body = gen(() => arbitraryOf(successSchema(method, path)));
							answered.push(body);
							return body as nock.Body;
						});
					let error: unknown;
					let output: Array<{ json: IDataObject }> = [];
					try {
						({ output } = await run(parameters, undefined, { authentication }));
					} catch (e) {
						error = e;
					}
					// Something was answered: the property is about reading answers.
					expect(answered.length).toBeGreaterThan(0);
					if (error !== undefined) {
						expect(error instanceof NodeApiError || error instanceof NodeOperationError).toBe(true);
						// The node's errors keep a programming error (a TypeError) as their cause.
						const cause = (error as { cause?: unknown }).cause;
						expect(
							cause instanceof TypeError ||
								cause instanceof RangeError ||
								cause instanceof ReferenceError,
						).toBe(false);
					} else {
						expect(Array.isArray(output)).toBe(true);
						for (const item of output) expect(typeof item.json).toBe('object');
					}
				}),
				{ numRuns: 40, endOnFailure: true },
			);
		},
		120_000,
	);

	it.each([
		['GET', '/2/spaces/1DXxyRYNejbKM'],
		['GET', '/2/news/search'],
		['GET', '/2/tweets/1460323737035677698'],
		['GET', '/2/notes/search/notes_written'],
		['POST', '/2/webhooks'],
	])(
		'the generator makes answers the checker accepts for %s %s (the property is about the contract’s answers)',
		(method, path) => {
			fc.assert(
				fc.property(arbitraryOf(successSchema(method, path)), (body) => {
					expect(
						checker.checkAnswer({ method, path, status: 200, body: body as IDataObject })
							.violations,
					).toEqual([]);
				}),
				{ numRuns: 50 },
			);
		},
	);
});
