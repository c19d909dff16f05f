'use strict';
/**
 * A local stand-in for an OpenAI-compatible chat API, for n8n's OpenAI Chat Model node whose credential's
 * Base URL points at it (`<url>/v1`): GET /v1/models and POST /v1/chat/completions (plain or streamed).
 * No model runs: the conversation is scripted, as the agent tests need it.
 *
 *   - a request whose last message is not a tool result answers with one call of the tool whose name
 *     matches `toolPattern` (taken from the request's own `tools`, so the name is the one n8n chose),
 *     with `nextArguments` (set by the test) or, when unset, every string parameter of the tool filled
 *     with the user's message;
 *   - a request whose last message is a tool result answers with a final message that repeats it, so
 *     that the agent's output shows what the tool answered.
 *
 * Every request is recorded in `requests` ({path, body, toolProblems}): `toolProblems` lists where the
 * `tools` n8n sent break what the API accepts: at most 128 tools, unique function names of
 * [a-zA-Z0-9_-]{1,64}, descriptions of at most 1024 characters, parameters that are a valid JSON Schema
 * (checked against its meta-schema and compiled by Ajv, the one n8n ships) of an object, within the
 * limits the API sets for schemas (10 levels of nesting, 5000 properties, 1000 enum values, 120,000
 * characters of property names and enum values).
 */
const http = require('node:http');
const path = require('node:path');

/** Where Ajv is looked for when no folder is given: the repository's own packages. */
const REPO = path.join(__dirname, '..', '..');

const LIMITS = {
	tools: 128,
	name: /^[a-zA-Z0-9_-]{1,64}$/,
	description: 1024,
	depth: 10,
	properties: 5000,
	enumValues: 1000,
	schemaText: 120000,
};

/** Ajv from `from`'s packages (the n8n host's in the e2e suite), else from the repository's. */
function loadAjv(from = REPO, schema) {
	const draft2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
	const mod = require(require.resolve(draft2020 ? 'ajv/dist/2020' : 'ajv', { paths: [from] }));
	const Ajv = mod.default || mod;
	return new Ajv({ strict: false, allErrors: true });
}

/** Where a tool's `parameters` exceed the API's size limits for a schema. */
function sizeProblems(schema) {
	const problems = [];
	let properties = 0;
	let enumValues = 0;
	let text = 0;
	let deepest = 0;
	const walk = (node, depth) => {
		if (!node || typeof node !== 'object') return;
		if (Array.isArray(node)) return node.forEach((n) => walk(n, depth));
		deepest = Math.max(deepest, depth);
		if (node.properties && typeof node.properties === 'object') {
			for (const [name, sub] of Object.entries(node.properties)) {
				properties++;
				text += name.length;
				walk(sub, depth + 1);
			}
		}
		if (Array.isArray(node.enum)) {
			enumValues += node.enum.length;
			for (const v of node.enum) text += String(v).length;
		}
		if (node.const !== undefined) text += String(node.const).length;
		for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'not'])
			if (node[key] && typeof node[key] === 'object') walk(node[key], depth + 1);
		for (const key of ['definitions', '$defs'])
			if (node[key] && typeof node[key] === 'object')
				for (const [name, sub] of Object.entries(node[key])) {
					text += name.length;
					walk(sub, depth + 1);
				}
	};
	walk(schema, 1);
	if (deepest > LIMITS.depth)
		problems.push(`nested ${deepest} levels deep (at most ${LIMITS.depth})`);
	if (properties > LIMITS.properties)
		problems.push(`${properties} properties (at most ${LIMITS.properties})`);
	if (enumValues > LIMITS.enumValues)
		problems.push(`${enumValues} enum values (at most ${LIMITS.enumValues})`);
	if (text > LIMITS.schemaText)
		problems.push(`${text} characters of names and enum values (at most ${LIMITS.schemaText})`);
	return problems;
}

/** Every way `tools` (a chat completion request's) breaks what the API accepts; [] when none. */
function checkTools(tools, ajvFrom) {
	if (tools === undefined) return [];
	if (!Array.isArray(tools)) return ['tools is not an array'];
	const problems = [];
	if (tools.length > LIMITS.tools) problems.push(`${tools.length} tools (at most ${LIMITS.tools})`);
	const names = new Set();
	tools.forEach((tool, i) => {
		const at = `tools[${i}]`;
		if (!tool || tool.type !== 'function' || !tool.function)
			return problems.push(`${at} is not {type: 'function', function}`);
		const { name, description, parameters } = tool.function;
		if (typeof name !== 'string' || !LIMITS.name.test(name))
			problems.push(`${at}.function.name ${JSON.stringify(name)} is not ${LIMITS.name}`);
		else if (names.has(name)) problems.push(`${at}.function.name ${name} is not unique`);
		names.add(name);
		if (description !== undefined && typeof description !== 'string')
			problems.push(`${at}.function.description is not a string`);
		else if (description && description.length > LIMITS.description)
			problems.push(
				`${at}.function.description has ${description.length} characters (at most ${LIMITS.description})`,
			);
		if (parameters === undefined) return;
		if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters))
			return problems.push(`${at}.function.parameters is not an object`);
		if (parameters.type !== 'object')
			problems.push(`${at}.function.parameters is not an object schema (type ${parameters.type})`);
		const ajv = loadAjv(ajvFrom, parameters);
		if (!ajv.validateSchema(parameters))
			problems.push(
				`${at}.function.parameters is not a valid JSON Schema: ${ajv.errorsText(ajv.errors)}`,
			);
		else
			try {
				ajv.compile(parameters);
			} catch (error) {
				problems.push(`${at}.function.parameters does not compile: ${error.message}`);
			}
		for (const p of sizeProblems(parameters)) problems.push(`${at}.function.parameters: ${p}`);
	});
	return problems;
}

function textOf(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => (part && typeof part.text === 'string' ? part.text : '')).join('');
	return '';
}

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/**
 * `toolPattern`: which offered tool the scripted model calls; `ajvFrom`: the folder whose node_modules
 * hold Ajv (the n8n host's). `listen(port = 0)` resolves to the stub; `url` is its origin.
 */
function createOpenAiStub({ toolPattern = /platform/i, ajvFrom, model = 'stub-model' } = {}) {
	let server;
	let seq = 0;
	const stub = {
		url: undefined,
		requests: [],
		/** The arguments of the next tool call (then cleared); unset: the user's message fills them. */
		nextArguments: undefined,
		/** The chat completion requests recorded since `since` (an index into `requests`). */
		chats: (since = 0) =>
			stub.requests.slice(since).filter((r) => r.path === '/v1/chat/completions'),
		listen(port = 0) {
			server = http.createServer((req, res) => {
				handle(req, res).catch((error) => {
					res.writeHead(500, { 'content-type': 'application/json' });
					res.end(JSON.stringify({ error: { message: String(error && error.message) } }));
				});
			});
			return new Promise((resolve) =>
				server.listen(port, '127.0.0.1', () => {
					stub.url = `http://127.0.0.1:${server.address().port}`;
					resolve(stub);
				}),
			);
		},
		close: () =>
			new Promise((resolve) => {
				if (!server) return resolve();
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};

	/** The assistant message that answers `body` (a chat completion request). */
	function answer(body) {
		const messages = Array.isArray(body.messages) ? body.messages : [];
		const last = messages[messages.length - 1] || {};
		if (last.role === 'tool')
			return { role: 'assistant', content: `The tool answered: ${textOf(last.content)}` };
		const tool = (body.tools || []).find(
			(t) => t && t.function && toolPattern.test(t.function.name),
		);
		if (!tool) return { role: 'assistant', content: 'No tool to call.' };
		let args = stub.nextArguments;
		stub.nextArguments = undefined;
		if (!args) {
			const said = textOf(([...messages].reverse().find((m) => m.role === 'user') || {}).content);
			const props = (tool.function.parameters && tool.function.parameters.properties) || {};
			args = Object.fromEntries(
				Object.entries(props)
					.filter(([, s]) => s && s.type === 'string')
					.map(([k]) => [k, said]),
			);
		}
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: `call_stub_${++seq}`,
					type: 'function',
					function: { name: tool.function.name, arguments: JSON.stringify(args) },
				},
			],
		};
	}

	async function handle(req, res) {
		const url = new URL(req.url, 'http://stub');
		const raw = await readBody(req);
		let body;
		try {
			body = raw ? JSON.parse(raw) : undefined;
		} catch {
			body = raw;
		}
		const row = { at: new Date().toISOString(), method: req.method, path: url.pathname, body };
		stub.requests.push(row);
		const json = (status, value) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(value));
		};
		if (req.method === 'GET' && url.pathname === '/v1/models')
			return json(200, {
				object: 'list',
				data: [{ id: model, object: 'model', created: 0, owned_by: 'stub' }],
			});
		if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions')
			return json(404, {
				error: {
					message: `the stub answers GET /v1/models and POST /v1/chat/completions, not ${req.method} ${url.pathname}`,
					type: 'invalid_request_error',
				},
			});
		row.toolProblems = checkTools(body.tools, ajvFrom);
		const message = answer(body);
		const finish = message.tool_calls ? 'tool_calls' : 'stop';
		const id = `chatcmpl-stub-${stub.requests.length}`;
		const created = Math.floor(Date.now() / 1000);
		const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
		row.answer = message;
		if (!body.stream)
			return json(200, {
				id,
				object: 'chat.completion',
				created,
				model: body.model || model,
				choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
				usage,
			});
		// Streamed: the whole message in one delta, then the finish, then usage when asked for.
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		const chunk = (choices, extra = {}) =>
			res.write(
				`data: ${JSON.stringify(Object.assign({ id, object: 'chat.completion.chunk', created, model: body.model || model, choices }, extra))}\n\n`,
			);
		const delta = message.tool_calls
			? {
					role: 'assistant',
					content: null,
					tool_calls: message.tool_calls.map((c, index) => Object.assign({ index }, c)),
				}
			: { role: 'assistant', content: message.content };
		chunk([{ index: 0, delta, finish_reason: null }]);
		chunk([{ index: 0, delta: {}, finish_reason: finish }]);
		if (body.stream_options && body.stream_options.include_usage) chunk([], { usage });
		res.end('data: [DONE]\n\n');
	}

	return stub;
}

module.exports = { createOpenAiStub, checkTools, LIMITS };
