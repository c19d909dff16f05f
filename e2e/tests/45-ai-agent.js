'use strict';
/**
 * Platform Posts as a tool of n8n's AI Agent, in real n8n: the agent's OpenAI Chat Model talks to a local
 * OpenAI-compatible stub (e2e/lib/openaiStub.js) that answers with a call of the Platform Posts tool,
 * then with a message repeating what the tool answered. The agent, model and tool nodes are the AI agent
 * example's (examples/ai-agent-post.json), started by a Webhook instead of the example's Chat Trigger so
 * that the test sends the user's message.
 */
const F = require('../lib/fixtures');
const { createOpenAiStub } = require('../lib/openaiStub');
const { session } = require('../lib/rest');

const WF = 'e2eAiAgentPost01';
const PATH = 'e2e-ai-agent-post';
const TOOL_NODE = 'Platform Posts';

/** The example's agent, model and tool, behind a Webhook whose body's `message` is the user's message. */
function agentWorkflow(ctx) {
	const example = F.sandboxExample(ctx.sandboxUrl, 'exAiAgentPost001');
	if (!example) throw new Error('examples/ai-agent-post.json (exAiAgentPost001) is missing');
	const trigger = example.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	const nodes = example.nodes
		.filter((n) => n !== trigger && n.type !== 'n8n-nodes-base.stickyNote')
		.map((n) => JSON.parse(JSON.stringify(n)));
	const agent = nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.agent');
	Object.assign(agent.parameters, { promptType: 'define', text: '={{ $json.body.message }}' });
	const connections = JSON.parse(JSON.stringify(example.connections));
	connections.Start = connections[trigger.name];
	delete connections[trigger.name];
	return F.workflow(
		WF,
		'e2e AI agent posts with the Platform Posts tool',
		[F.webhookStart(PATH), ...nodes],
		connections,
		{ active: true },
	);
}

/** The tool n8n offered the model in a recorded chat request. */
function offeredTool(request) {
	return (request.body.tools || []).find((t) => /platform/i.test(t.function.name));
}

module.exports = [
	{
		name: 'agent: the AI Agent posts through the Platform Posts tool once; a refusal reaches the model as the tool answer',
		needs: ['platformPosts:post.create'],
		modes: ['regular'],
		timeoutMs: 60000,
		async prepare(ctx) {
			ctx.openai = await createOpenAiStub({ ajvFrom: ctx.inst.host.cache }).listen(0);
			ctx.defer(() => ctx.openai.close());
		},
		credentials: (ctx) => [F.openAiStubCredential(ctx.openai.url)],
		workflows: (ctx) => [agentWorkflow(ctx)],
		publish: () => [WF],
		async run(ctx) {
			const { assert, openai } = ctx;
			const text = `Hello from the agent ${Date.now()}`;

			// 1. The model calls the tool with the text it chose: one post, and the agent says its id.
			let since = ctx.seq();
			let from = openai.requests.length;
			openai.nextArguments = { text };
			const items = await ctx.call(PATH, { message: `Please post: ${text}` });
			const posts = ctx.records(since, '/2/tweets').filter((r) => r.method === 'POST');
			assert.equal(posts.length, 1, `one POST /2/tweets, got ${posts.length}`);
			assert.equal(posts[0].status, 201, JSON.stringify(posts[0].response).slice(0, 300));
			assert.deepEqual(posts[0].body, { text }, 'the post carries the text the model chose');
			assert.ok(posts[0].auth && posts[0].auth.valid, JSON.stringify(posts[0].auth));
			assert.equal(posts[0].auth.kind, 'oauth2');
			const id = posts[0].response.data.id;
			const stored = ctx.sandbox.db.tweets.get(id);
			assert.ok(stored && stored.text === text, 'the post is in the sandbox');
			assert.equal(items.length, 1, JSON.stringify(items).slice(0, 500));
			assert.match(String(items[0].output), new RegExp(id), 'the agent output names the new id');

			let chats = openai.chats(from);
			assert.equal(chats.length, 2, 'two model turns: the tool call, then the answer');
			for (const c of chats)
				assert.deepEqual(c.toolProblems, [], `the tools n8n sent: ${c.toolProblems.join('; ')}`);
			const tool = offeredTool(chats[0]);
			assert.ok(tool, `n8n offered no Platform Posts tool: ${JSON.stringify(chats[0].body.tools)}`);
			ctx.H.log(`      the tool n8n offered the model: ${JSON.stringify(tool)}`);
			assert.equal(tool.function.name, TOOL_NODE.replace(/ /g, '_'));
			// Only the $fromAI key reaches the model, not the node's hundreds of fields.
			assert.deepEqual(Object.keys(tool.function.parameters.properties), ['text']);
			assert.equal(tool.function.parameters.properties.text.type, 'string');
			assert.equal(tool.function.parameters.properties.text.description, 'The text of the post');
			assert.equal(tool.function.description, 'Create a post in Platform Posts');
			const result = chats[1].body.messages.filter((m) => m.role === 'tool');
			assert.equal(result.length, 1);
			assert.equal(result[0].tool_call_id, chats[0].answer.tool_calls[0].id);
			assert.equal(JSON.parse(result[0].content)[0].id, id, 'the tool result is the new post');

			// 2. The same text again: the service refuses it; the model gets the service's reason as the
			// tool's answer and the run ends normally with the agent's reply.
			since = ctx.seq();
			from = openai.requests.length;
			openai.nextArguments = { text };
			const refused = await ctx.call(PATH, { message: `Please post: ${text}` });
			const again = ctx.records(since, '/2/tweets').filter((r) => r.method === 'POST');
			assert.equal(again.length, 1, `one POST /2/tweets (not retried), got ${again.length}`);
			assert.equal(again[0].status, 403);
			chats = openai.chats(from);
			assert.equal(chats.length, 2, 'the model got a second turn with the tool answer');
			const answer = chats[1].body.messages.filter((m) => m.role === 'tool');
			assert.equal(answer.length, 1);
			assert.equal(answer[0].tool_call_id, chats[0].answer.tool_calls[0].id);
			// n8n hands the model the error's message (not its description) as the tool's result.
			const toolResult = JSON.parse(answer[0].content);
			assert.ok(
				Array.isArray(toolResult) &&
					toolResult.length === 1 &&
					Object.keys(toolResult[0]).join() === 'error' &&
					/duplicate post/.test(toolResult[0].error),
				`the refusal reaches the model as the tool result: ${answer[0].content}`,
			);
			assert.ok(
				String(refused[0].output).includes(toolResult[0].error),
				`the agent's reply: ${JSON.stringify(refused)}`,
			);
			assert.equal(
				[...ctx.sandbox.db.tweets.values()].filter((t) => t.text === text).length,
				1,
				'the post is in the sandbox once',
			);
			const runs = await (await session(ctx.inst.port)).executions(WF);
			assert.deepEqual(
				runs.slice(0, 2).map((r) => r.status),
				['success', 'success'],
				'neither run failed',
			);
		},
	},
];
