/**
 * One boundary at every public door: each entry point the library hands out runs n8n's real
 * HTTP Request tool (n8n-nodes-base httpRequestTool v4.2 through n8n-core, header auth from a
 * credential record) against the same loopback page, which echoes every request header — the
 * credential's `X-Api-Key` among them — followed by ~100,000 characters. Whatever a door hands
 * out (a tool's observation, a LangChain view's text, what the model of an agent run reads, an
 * MCP result, an OpenAI-compatible answer) holds no secret and is capped at 20,000 characters
 * by default; `maxOutputLength: Infinity` lifts the cap, never the redaction. The model is a
 * loopback fake that calls the tool and then repeats what it read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	createNodeAsTool,
	loadWorkflowTools,
	mcpServerFactory,
	mcpToolFromAgentTool,
	openWorkflowSession,
	privateNetworkGuard,
	readWorkflowInput,
	runWorkflowAgent,
	serveMcpHttp,
	serveOpenAI,
	StandaloneHost,
	toLangChainTool,
	workflowAgentMcpTool,
	type AgentTool,
} from '../src/index';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../test/support/fake-chat-server';
import { v2HttpClient } from './support/mcp-v2-clients';
import { repoRoot } from './support/toolbridge-process';

const SECRET = 'supersecret-abcdef-12345';
const MODEL_KEY = 'model-key-9c1e5b7a3d';
const workflowFile = `${repoRoot}/fixtures/workflows/http-tools.json`;
const credentials = {
	'Inventory API key': { name: 'X-Api-Key', value: SECRET },
	'OpenRouter account': { apiKey: MODEL_KEY },
};
/** The default cap, and what its note adds. */
const CAP = 20_000;
const NOTE = /\n\[Output truncated: showing the first 20000 of \d+ characters\.\]$/;

let page: Server;
let pageUrl: string;
let model: FakeChatServer;

beforeAll(async () => {
	page = createServer((request, response) => {
		response
			.writeHead(200, { 'content-type': 'application/json' })
			.end(JSON.stringify({ headers: request.headers, padding: 'x'.repeat(100_000) }));
	});
	await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
	pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/echo`;
	// Calls the tool once, then answers with the tool message it read (a model repeating its input).
	model = await startFakeChatServer({
		respond: (request: FakeRequest) => {
			const toolMessage = toolMessageOf(request);
			if (toolMessage === undefined)
				return toolCallReply([{ name: 'Fetch_item', arguments: { url: pageUrl } }]);
			return textReply(`I read: ${toolMessage}`);
		},
	});
});

afterAll(async () => {
	await model.close();
	await new Promise<void>((resolve) => page.close(() => resolve()));
});

function toolMessageOf(request: FakeRequest): string | undefined {
	const messages = request.body.messages as Array<{ role: string; content: unknown }>;
	const tool = messages.find((message) => message.role === 'tool');
	return tool === undefined ? undefined : String(tool.content);
}

/** The page's text as a door hands it out: the key replaced, the text cut at the default cap. */
function expectBounded(text: string): void {
	expect(text).toContain('x-api-key');
	expect(text).not.toContain(SECRET);
	expect(text).toContain('[REDACTED]');
	expect(text).toMatch(NOTE);
	expect(text.length).toBeLessThanOrEqual(CAP + 80);
}

function fetchItem(tools: AgentTool[]): AgentTool {
	const tool = tools.find((candidate) => candidate.name === 'Fetch_item');
	if (!tool) throw new Error(`no Fetch_item among ${tools.map((candidate) => candidate.name)}`);
	return tool;
}

/** The model's reading of the tool (the fake's second request), and what the door answered. */
function modelReading(): string {
	const reading = model.requests
		.map(toolMessageOf)
		.filter((text) => text !== undefined)
		.at(-1);
	if (reading === undefined) throw new Error('the model never read a tool message');
	return reading;
}

describe('every public door redacts the secrets it knows and caps the text', () => {
	it('loadWorkflowTools: its tools, and their LangChain views', async () => {
		const loaded = await loadWorkflowTools(workflowFile, { credentials, env: {} });
		const tool = fetchItem(loaded.tools);
		const observation = await tool.invoke({ url: pageUrl }, { toolCallId: 'd1' });
		expect(observation.isError).toBe(false);
		expectBounded(observation.content);
		// The JSON value of a cut text is not handed on (MCP's structuredContent would carry it whole).
		expect(observation.value).toBeUndefined();
		expect(JSON.stringify(observation.data)).not.toContain(SECRET);

		const view = loaded.langChainTools[loaded.tools.indexOf(tool)];
		expectBounded(String(await view.invoke({ url: pageUrl })));
		await loaded.close();
	});

	it('openWorkflowSession: its tools; maxOutputLength: Infinity lifts the cap, not the redaction', async () => {
		const session = await openWorkflowSession(workflowFile, { credentials, env: {} });
		expectBounded(
			(await fetchItem(session.tools).invoke({ url: pageUrl }, { toolCallId: 'd2' })).content,
		);
		await session.close();

		const uncapped = await openWorkflowSession(workflowFile, {
			credentials,
			env: {},
			maxOutputLength: Infinity,
		});
		const whole = (await fetchItem(uncapped.tools).invoke({ url: pageUrl }, { toolCallId: 'd3' }))
			.content;
		expect(whole.length).toBeGreaterThan(100_000);
		expect(whole).not.toContain(SECRET);
		expect(whole).toContain('[REDACTED]');
		await uncapped.close();
		// Anything else is refused with a clear error, never read as "cut everything".
		for (const maxOutputLength of [0, -1, '20000', Number.NaN])
			await expect(
				loadWorkflowTools(workflowFile, { credentials, env: {}, maxOutputLength } as never),
			).rejects.toMatchObject({
				code: 'INVALID_ARGUMENT',
				message: expect.stringContaining('Infinity: no cap'),
			});
	});

	it('createNodeAsTool on the host that holds the credentials (runnerFor), and its LangChain view', async () => {
		const host = await StandaloneHost.create({ credentials, env: {} });
		const workflow = readWorkflowInput(workflowFile);
		const node = workflow.nodes.find((candidate) => candidate.name === 'Fetch item')!;
		const tool = createNodeAsTool({
			node,
			nodeTypeDescription: host.describe(node),
			runner: host.runnerFor(workflow),
		});
		expectBounded((await tool.invoke({ url: pageUrl }, { toolCallId: 'd4' })).content);
		expectBounded(String(await toLangChainTool(tool).invoke({ url: pageUrl })));
	});

	it('runWorkflowAgent: what the model reads, and the run it returns', async () => {
		const run = await runWorkflowAgent(workflowFile, {
			prompt: 'Fetch the echo page',
			credentials,
			env: {},
			baseUrl: model.baseUrl,
		});
		expectBounded(modelReading());
		expect(model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
		if (run.mode !== 'full') throw new Error(`expected a full run, got ${run.mode}`);
		expect(run.result.output).toContain('I read: ');
		expectBounded(run.result.output.slice('I read: '.length));
		const everything = JSON.stringify(run);
		expect(everything).not.toContain(SECRET);
		expect(everything).not.toContain(MODEL_KEY);
	});

	it("the MCP server (mcpServerFactory over Streamable HTTP, the official client): a library's tools and the agent as a tool", async () => {
		const session = await openWorkflowSession(workflowFile, {
			credentials,
			env: {},
			baseUrl: model.baseUrl,
		});
		const loaded = await loadWorkflowTools(workflowFile, { credentials, env: {} });
		const tools = [
			mcpToolFromAgentTool(fetchItem(session.tools)),
			{ ...mcpToolFromAgentTool(fetchItem(loaded.tools)), name: 'Fetch_item_loaded' },
			workflowAgentMcpTool(session, 'AI Agent'),
		];
		const server = await serveMcpHttp({
			address: { host: '127.0.0.1', port: 0 },
			factory: mcpServerFactory({ tools }),
		});
		const client = await v2HttpClient(`${server.url}/mcp`, 'modern');
		try {
			for (const name of ['Fetch_item', 'Fetch_item_loaded']) {
				const result = await client.callTool({ name, arguments: { url: pageUrl } });
				expect(result.isError).toBeFalsy();
				const text = (result.content as Array<{ text: string }>)[0].text;
				expectBounded(text);
				expect(JSON.stringify(result)).not.toContain(SECRET);
			}
			const agent = await client.callTool({
				name: tools[2].name,
				arguments: { prompt: 'Fetch the echo page' },
			});
			expectBounded(modelReading());
			expect(JSON.stringify(agent)).toContain('I read: ');
			expect(JSON.stringify(agent)).not.toContain(SECRET);
		} finally {
			await client.close();
			await server.close();
			await session.close();
			await loaded.close();
		}
	});

	it('the OpenAI-compatible server (serveOpenAI on a session, the official openai client)', async () => {
		const session = await openWorkflowSession(workflowFile, {
			credentials,
			env: {},
			baseUrl: model.baseUrl,
			loadTools: false,
		});
		const server = await serveOpenAI({
			address: { host: '127.0.0.1', port: 0 },
			session,
			agents: ['AI Agent'],
		});
		try {
			const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
			const completion = await client.chat.completions.create({
				model: 'AI Agent',
				messages: [{ role: 'user', content: 'Fetch the echo page' }],
			});
			expectBounded(modelReading());
			const answer = completion.choices[0].message.content ?? '';
			expect(answer).toContain('I read: ');
			expect(JSON.stringify(completion)).not.toContain(SECRET);
		} finally {
			await server.close();
		}
	});

	it('the private-network guard is opt-in for the library: given, it refuses the loopback page the model chose', async () => {
		const { tools, close } = await loadWorkflowTools(workflowFile, {
			credentials,
			env: {},
			guard: privateNetworkGuard(),
		});
		const observation = await fetchItem(tools).invoke({ url: pageUrl }, { toolCallId: 'd5' });
		expect(observation.isError).toBe(true);
		expect(observation.content).toContain('Refused to connect to 127.0.0.1');
		await close();
	});
});
