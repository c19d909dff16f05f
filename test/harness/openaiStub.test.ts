/* eslint-disable @typescript-eslint/no-require-imports -- the e2e harness is plain CommonJS */
/** The OpenAI-compatible stub of the AI Agent e2e test (e2e/lib/openaiStub.js): its checks and its script. */
const { checkTools, createOpenAiStub, LIMITS } = require('../../e2e/lib/openaiStub');

type Tool = {
	type: string;
	function: { name: string; description?: string; parameters?: unknown };
};

/** A tool as n8n 2.40 sends it for a Platform Posts Tool node with one $fromAI key. */
function tool(overrides: Partial<Tool['function']> = {}): Tool {
	return {
		type: 'function',
		function: {
			name: 'Platform_Posts',
			description: 'Create a post in Platform Posts',
			parameters: {
				type: 'object',
				properties: { text: { type: 'string', description: 'The text of the post' } },
				required: ['text'],
				additionalProperties: false,
				$schema: 'http://json-schema.org/draft-07/schema#',
			},
			...overrides,
		},
	};
}

/** A schema nested `levels` objects deep. */
function nested(levels: number): object {
	let schema: object = { type: 'string' };
	for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
	return schema;
}

describe('checkTools', () => {
	it('accepts the tool n8n sends for a $fromAI field, and no tools at all', () => {
		expect(checkTools([tool()])).toEqual([]);
		expect(checkTools(undefined)).toEqual([]);
	});

	it('names each limit of the API a tool breaks', () => {
		const problems = (t: unknown) => checkTools(Array.isArray(t) ? t : [t]).join('\n');
		expect(problems(tool({ name: 'Platform Posts' }))).toMatch(/name "Platform Posts" is not/);
		expect(problems(tool({ name: 'x'.repeat(65) }))).toMatch(/name "x{65}" is not/);
		expect(problems([tool(), tool()])).toMatch(
			/tools\[1\]\.function\.name Platform_Posts is not unique/,
		);
		expect(problems(tool({ description: 'd'.repeat(LIMITS.description + 1) }))).toMatch(
			/description has 1025 characters \(at most 1024\)/,
		);
		const many = Array.from({ length: LIMITS.tools + 1 }, (_, i) => tool({ name: `tool_${i}` }));
		expect(problems(many)).toMatch(/129 tools \(at most 128\)/);
		expect(problems({ type: 'function' })).toMatch(/is not \{type: 'function', function\}/);
	});

	it('holds parameters to a valid JSON Schema of an object, within the size limits', () => {
		const problems = (parameters: unknown) => checkTools([tool({ parameters })]).join('\n');
		expect(problems({ type: 'string' })).toMatch(/not an object schema \(type string\)/);
		expect(problems({ type: 'object', properties: { text: { type: 'text' } } })).toMatch(
			/not a valid JSON Schema/,
		);
		expect(problems({ type: 'object', required: 'text' })).toMatch(/not a valid JSON Schema/);
		expect(problems([])).toMatch(/parameters is not an object/);
		expect(problems({ ...nested(LIMITS.depth + 1), type: 'object' })).toMatch(
			/nested 11 levels deep \(at most 10\)/,
		);
		expect(problems({ ...nested(LIMITS.depth), type: 'object' })).not.toMatch(/nested/);
		const props = Object.fromEntries(
			Array.from({ length: LIMITS.properties + 1 }, (_, i) => [`p${i}`, { type: 'string' }]),
		);
		expect(problems({ type: 'object', properties: props })).toMatch(
			/5001 properties \(at most 5000\)/,
		);
		const values = Array.from({ length: LIMITS.enumValues + 1 }, (_, i) => `v${i}`);
		expect(
			problems({ type: 'object', properties: { kind: { type: 'string', enum: values } } }),
		).toMatch(/1001 enum values \(at most 1000\)/);
	});
});

describe('the scripted model', () => {
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stub is plain JS
	let stub: any;
	beforeAll(async () => {
		stub = await createOpenAiStub().listen(0);
	});
	afterAll(() => stub.close());

	const chat = async (body: object) => {
		const res = await fetch(`${stub.url}/v1/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: res.status, text: await res.text() };
	};
	const user = { role: 'user', content: 'Please post: hello' };

	it('calls the offered Platform tool with the user message, then repeats the tool result', async () => {
		const offered = [tool({ name: 'Calculator' }), tool()];
		const first = JSON.parse((await chat({ model: 'm', messages: [user], tools: offered })).text);
		const call = first.choices[0].message.tool_calls[0];
		expect(first.choices[0].finish_reason).toBe('tool_calls');
		expect(call.function.name).toBe('Platform_Posts');
		expect(JSON.parse(call.function.arguments)).toEqual({ text: 'Please post: hello' });
		stub.nextArguments = { text: 'chosen' };
		const chosen = JSON.parse((await chat({ messages: [user], tools: offered })).text);
		expect(JSON.parse(chosen.choices[0].message.tool_calls[0].function.arguments)).toEqual({
			text: 'chosen',
		});
		const toolMessage = { role: 'tool', tool_call_id: call.id, content: '[{"id":"1"}]' };
		const second = JSON.parse(
			(await chat({ messages: [user, first.choices[0].message, toolMessage], tools: offered }))
				.text,
		);
		expect(second.choices[0].message.content).toBe('The tool answered: [{"id":"1"}]');
		expect(stub.chats().map((r: { toolProblems: string[] }) => r.toolProblems)).toEqual([
			[],
			[],
			[],
		]);
	});

	it('streams the same answer as chunks when asked to', async () => {
		const { text } = await chat({ messages: [user], tools: [tool()], stream: true });
		const events = text.split('\n\n').filter(Boolean);
		expect(events[events.length - 1]).toBe('data: [DONE]');
		const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')));
		expect(chunks[0].choices[0].delta.tool_calls[0]).toMatchObject({
			index: 0,
			function: { name: 'Platform_Posts' },
		});
		expect(chunks[1].choices[0].finish_reason).toBe('tool_calls');
	});

	it('records what n8n sent that breaks the API, and answers other paths with 404', async () => {
		await chat({ messages: [user], tools: [tool({ name: 'bad name' })] });
		expect(stub.requests[stub.requests.length - 1].toolProblems.join()).toMatch(/bad name/);
		const res = await fetch(`${stub.url}/v1/responses`, { method: 'POST', body: '{}' });
		expect(res.status).toBe(404);
		const models = await (await fetch(`${stub.url}/v1/models`)).json();
		expect(models.data.map((m: { id: string }) => m.id)).toEqual(['stub-model']);
	});
});
