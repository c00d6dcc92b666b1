/**
 * A node whose client library fails outside the node's promise: n8n's Milvus Vector Store (a
 * RAG agent's knowledge base, as in n8n's public templates) pointed at a closed loopback port.
 * Its gRPC client rejects a connect promise nobody awaits (`14 UNAVAILABLE … ECONNREFUSED`),
 * which used to end the process with Node's uncaught-error dump. On every surface — MCP over
 * stdio and Streamable HTTP (official SDK client), `serve` (official `openai` client), `run` and
 * `call` — the call ends as an error naming the node, and the process answers the next request.
 * Embeddings and the agent's model are a loopback fake; everything else is the real CLI.
 */
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import {
	runToolbridge,
	startToolbridgeServer,
	toolbridgeCommand,
} from '../support/toolbridge-process';

const workflow = 'fixtures/workflows/milvus-rag-agent.json';
const tool = 'Milvus_knowledge';
const token = 'stray-token-5d1a';
/**
 * What the call's error names: the node, and what its gRPC client said (`Last error:` is
 * `connect ECONNREFUSED 127.0.0.1:<port>` or `null`, depending on the channel's state).
 */
const strayError =
	/node "Milvus knowledge" failed: an error escaped the node's run .*14 UNAVAILABLE: No connection established/s;
/** What Node prints when an error ends the process. */
const crashDump = /triggerUncaughtException|Node\.js v\d+|^\s+at /m;

type CallResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
/** The first call waits while n8n's LangChain nodes load: beyond the SDK's 60 s default on a busy machine. */
const patient = { timeout: 200_000 };

function lastToolResult(request: FakeRequest): string {
	const messages = request.body.messages as Array<{ role: string; content: string }>;
	return messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '';
}

/** Embeddings for the store, and a model that searches the knowledge base, then quotes the result. */
function respond(request: FakeRequest) {
	if (request.path.endsWith('/embeddings')) {
		const inputs: unknown[] = Array.isArray(request.body.input)
			? request.body.input
			: [request.body.input];
		return {
			json: {
				object: 'list',
				model: request.body.model,
				data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [1, 0, 0] })),
				usage: { prompt_tokens: 1, total_tokens: 1 },
			},
		};
	}
	const messages = request.body.messages as Array<{ role: string }>;
	if (messages.at(-1)?.role === 'tool')
		return textReply(`The knowledge base said: ${lastToolResult(request)}`);
	return toolCallReply([
		{ id: `call_${request.index}`, name: tool, arguments: { input: 'refund policy' } },
	]);
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

let model: FakeChatServer;
let env: Record<string, string>;

beforeAll(async () => {
	model = await startFakeChatServer({ respond });
	env = {
		TOOLBRIDGE_CREDENTIALS: JSON.stringify({
			'Milvus account': {
				baseUrl: `http://127.0.0.1:${await closedPort()}`,
				username: '',
				password: '',
			},
			'OpenAI account': { apiKey: 'sk-embeddings-fake', url: model.baseUrl },
			'OpenRouter account': { apiKey: 'sk-model-fake', url: model.baseUrl },
		}),
	};
});

afterAll(() => model?.close());

// Each case is its own CLI process: run them side by side.
describe.concurrent('a node whose client library throws outside its promise', () => {
	it('MCP over stdio: the call is an error naming the node; the server answers ping and the next call', async () => {
		const spec = toolbridgeCommand(['mcp', workflow]);
		const transport = new StdioClientTransport({
			command: spec.command,
			args: spec.args,
			cwd: spec.cwd,
			env: { ...spec.env, ...env },
			stderr: 'pipe',
		});
		let stderr = '';
		transport.stderr?.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
		const client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(transport);
		try {
			for (const attempt of [1, 2]) {
				const result = (await client.callTool(
					{ name: tool, arguments: { input: `refund policy ${attempt}` } },
					undefined,
					patient,
				)) as CallResult;
				expect(result.isError).toBe(true);
				expect(result.content[0].text).toMatch(strayError);
				expect(await client.ping()).toEqual({});
			}
			expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual([tool]);
		} finally {
			await client.close();
		}
		expect(stderr).not.toMatch(crashDump);
	}, 240_000);

	it('MCP over Streamable HTTP: the same, and the server exits 0 when stopped', async () => {
		const server = await startToolbridgeServer(['mcp', workflow, '--http', '127.0.0.1:0'], env);
		const client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
		try {
			for (const attempt of [1, 2]) {
				const result = (await client.callTool(
					{ name: tool, arguments: { input: `refund policy ${attempt}` } },
					undefined,
					patient,
				)) as CallResult;
				expect(result.isError).toBe(true);
				expect(result.content[0].text).toMatch(strayError);
				expect(await client.ping()).toEqual({});
			}
		} finally {
			await client.close();
		}
		expect(await server.stop()).toBe(0);
		expect(server.stderr()).not.toMatch(crashDump);
	}, 240_000);

	it('serve: the model reads the error observation and answers; the next request is served too', async () => {
		const server = await startToolbridgeServer(['serve', workflow, '--port', '0'], {
			...env,
			TOOLBRIDGE_TOKEN: token,
		});
		const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
		try {
			for (const attempt of [1, 2]) {
				const completion = await client.chat.completions.create({
					model: 'AI Agent',
					messages: [{ role: 'user', content: `What is the refund policy? (${attempt})` }],
				});
				const answer = completion.choices[0].message.content ?? '';
				expect(answer).toMatch(/^The knowledge base said: /);
				expect(answer).toMatch(strayError);
			}
		} finally {
			expect(await server.stop()).toBe(0);
		}
		expect(server.stderr()).not.toMatch(crashDump);
	}, 240_000);

	it('run: the loop goes on with the error observation and the answer is printed; no crash dump', async () => {
		const result = await runToolbridge(
			['run', workflow, '--prompt', 'What is the refund policy?'],
			env,
		);
		expect(result.stderr).not.toMatch(crashDump);
		expect(result.status).toBe(0);
		expect(result.stdout).toMatch(/^The knowledge base said: /);
		expect(result.stdout).toMatch(strayError);
	}, 240_000);

	it('call: the error naming the node on stderr, nothing on stdout, exit 1, no crash dump', async () => {
		const result = await runToolbridge(
			['call', workflow, tool, '--args', '{"input":"refund policy"}'],
			env,
		);
		expect(result.stderr).not.toMatch(crashDump);
		expect(result.status).toBe(1);
		expect(result.stdout).toBe('');
		expect(result.stderr).toMatch(strayError);
	}, 240_000);
});
