/**
 * `toolbridge mcp` driven by the official MCP SDK v1 Client (2025 handshake: what
 * `@langchain/mcp-adapters` and older clients use), over stdio and over Streamable
 * HTTP: the real CLI process, real n8n nodes through n8n-core, a loopback API for the HTTP
 * Request tools.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadWorkflowTools } from 'n8n-nodes-toolbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { startLoopbackApi, type LoopbackApi } from '../support/loopback-api';
import {
	repoRoot,
	runToolbridge,
	startToolbridgeServer,
	toolbridgeCommand,
	type ToolbridgeServer,
} from '../support/toolbridge-process';

const textTools = [
	'fixtures/workflows/text-tools.json',
	'--package',
	'fixtures/packages/n8n-nodes-toolbridge-fixture',
];
const credentials = JSON.stringify({
	'Inventory API key': { name: 'X-Api-Key', value: 'sk-test-secret' },
});
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type CallResult = {
	content: Array<{ type: string; text: string }>;
	isError?: boolean;
	structuredContent?: unknown;
};

describe('toolbridge mcp over stdio (SDK Client)', () => {
	let client: Client;
	let api: LoopbackApi;

	beforeAll(async () => {
		api = await startLoopbackApi();
		const spec = toolbridgeCommand(['mcp', ...textTools]);
		client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(
			new StdioClientTransport({
				command: spec.command,
				args: spec.args,
				cwd: spec.cwd,
				env: spec.env,
				stderr: 'pipe',
			}),
		);
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		await api?.close();
	});

	it("tools/list: every tool of the agent, with the compiler's JSON Schema as inputSchema", async () => {
		const { tools } = await client.listTools();
		const expected = await loadWorkflowTools(`${repoRoot}/fixtures/workflows/text-tools.json`, {
			packageDirs: [`${repoRoot}/fixtures/packages/n8n-nodes-toolbridge-fixture`],
			env: {},
		});
		expect(tools.map((tool) => tool.name)).toEqual([
			'Hash_text',
			'Format_date',
			'Make_record',
			'Text_stats',
			'Calendar_file',
		]);
		for (const tool of tools) {
			const source = expected.tools.find((candidate) => candidate.name === tool.name)!;
			expect(tool.inputSchema).toEqual(source.parameters);
			expect(tool.description).toBe(source.description);
		}
	});

	it('tools/call runs the real node: the observation as text, the JSON as structuredContent', async () => {
		const result = (await client.callTool({
			name: 'Hash_text',
			arguments: { text: 'over mcp' },
		})) as CallResult;
		expect(result.isError).toBeFalsy();
		expect(JSON.parse(result.content[0].text)).toEqual([{ sha256: sha256('over mcp') }]);
		expect(result.structuredContent).toEqual({ result: [{ sha256: sha256('over mcp') }] });
	});

	it('bad arguments are an isError result with the message the model would read', async () => {
		const result = (await client.callTool({
			name: 'Make_record',
			arguments: { name: 'Ada', age: 'old' },
		})) as CallResult;
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toMatch(
			/^Error: invalid arguments for tool "Make_record":\n- "age": expected a number, received the string "old"/,
		);
	});

	it('an unknown tool is an isError result naming the tools, not a protocol error', async () => {
		const result = (await client.callTool({ name: 'Nope', arguments: {} })) as CallResult;
		expect(result).toMatchObject({
			isError: true,
			content: [
				{ type: 'text', text: expect.stringContaining('Available tools: Hash_text, Format_date') },
			],
		});
	});
});

describe('toolbridge mcp: a URL the model chooses may not reach private addresses', () => {
	let client: Client;
	let api: LoopbackApi;

	beforeAll(async () => {
		api = await startLoopbackApi();
		const spec = toolbridgeCommand(['mcp', 'fixtures/workflows/http-tools.json']);
		client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(
			new StdioClientTransport({
				command: spec.command,
				args: spec.args,
				cwd: spec.cwd,
				env: { ...spec.env, TOOLBRIDGE_CREDENTIALS: credentials },
				stderr: 'pipe',
			}),
		);
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		await api?.close();
	});

	it('a loopback URL is refused before any request; the result says why', async () => {
		const result = (await client.callTool({
			name: 'Fetch_item',
			arguments: { url: `http://${api.host}/items/7` },
		})) as CallResult;
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toContain(
			'Refused to connect to 127.0.0.1: a loopback, private, link-local or cloud-metadata address',
		);
		expect(result.content[0].text).toContain('--allow-private-network');
		expect(api.received).toEqual([]);
	});
});

describe('toolbridge mcp --http (Streamable HTTP, SDK Client)', () => {
	const token = 'test-token-4d1f';
	let server: ToolbridgeServer;
	let api: LoopbackApi;
	let client: Client;

	beforeAll(async () => {
		api = await startLoopbackApi();
		server = await startToolbridgeServer(
			[
				'mcp',
				'fixtures/workflows/http-tools.json',
				'--http',
				'127.0.0.1:0',
				'--allow-private-network',
			],
			{
				TOOLBRIDGE_TOKEN: token,
				TOOLBRIDGE_CREDENTIALS: credentials,
			},
		);
		client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
				requestInit: { headers: { Authorization: `Bearer ${token}` } },
			}),
		);
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		expect(await server?.stop()).toBe(0);
		await api?.close();
	});

	it('lists and calls tools (with --allow-private-network the loopback API is reachable)', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual(['Fetch_item', 'Search_items']);
		const result = (await client.callTool({
			name: 'Fetch_item',
			arguments: { url: `http://${api.host}/items/7` },
		})) as CallResult;
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toEqual({ result: [{ id: 7, name: 'Lamp' }] });
		expect(server.stderr()).not.toContain('sk-test-secret');
	});

	it('bad arguments: isError', async () => {
		const result = (await client.callTool({ name: 'Fetch_item', arguments: {} })) as CallResult;
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toContain('"url": expected a string, received nothing');
	});

	it('2025 stateless: progress while a call runs; a cancel is acknowledged, the node stops when the client drops the stream', async () => {
		// Stateless serving has no session to find the call by: notifications/cancelled reaches a
		// fresh server instance (any replica) and changes nothing; the call ends when the client
		// closes its POST stream (or at the tool time limit).
		const own = new Client({ name: 'toolbridge-test-cancel', version: '1.0.0' });
		await own.connect(
			new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
				requestInit: { headers: { Authorization: `Bearer ${token}` } },
			}),
		);
		const controller = new AbortController();
		const progress: string[] = [];
		const call = own.callTool(
			{ name: 'Fetch_item', arguments: { url: `http://${api.host}/stall` } },
			undefined,
			{
				signal: controller.signal,
				onprogress: (note) => {
					progress.push(note.message ?? '');
				},
				resetTimeoutOnProgress: true,
			},
		);
		await expect
			.poll(() => api.received.filter((request) => request.path === '/stall').length, {
				timeout: 20_000,
			})
			.toBe(1);
		await expect.poll(() => progress.length, { timeout: 10_000 }).toBeGreaterThan(0);
		controller.abort('the user gave up');
		await expect(call).rejects.toThrow();
		const stalled = api.received.find((request) => request.path === '/stall')!;
		const state = () =>
			Promise.race([
				stalled.closed.then(() => 'closed'),
				new Promise((resolve) => setTimeout(() => resolve('still open'), 1_500)),
			]);
		await expect(state()).resolves.toBe('still open');
		await own.close();
		await expect
			.poll(() => server.stderr(), { timeout: 10_000 })
			.toContain('tools/call Fetch_item → cancelled');
		await expect(state()).resolves.toBe('closed');
		expect(progress[0]).toBe('Fetch_item: started');
	});

	it('401 without the token (also for the SDK client), 403 for a foreign Origin; /healthz is open', async () => {
		const initialize = {
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: {
				protocolVersion: '2025-06-18',
				capabilities: {},
				clientInfo: { name: 'x', version: '1' },
			},
		};
		const headers = {
			'Content-Type': 'application/json',
			Accept: 'application/json, text/event-stream',
		};
		const anonymous = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers,
			body: JSON.stringify(initialize),
		});
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
		const wrong = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers: { ...headers, Authorization: 'Bearer nope' },
			body: JSON.stringify(initialize),
		});
		expect(wrong.status).toBe(401);
		const foreign = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers: { ...headers, Authorization: `Bearer ${token}`, Origin: 'https://evil.example' },
			body: JSON.stringify(initialize),
		});
		expect(foreign.status).toBe(403);
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		const sdkWithoutToken = new Client({ name: 'no-token', version: '1.0.0' });
		await expect(
			sdkWithoutToken.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`))),
		).rejects.toThrow(/Missing or wrong bearer token/);
	});

	it('a body over the size limit gets 413', async () => {
		const response = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream',
				Authorization: `Bearer ${token}`,
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: { padding: 'x'.repeat(1024 * 1024 + 1) },
			}),
		});
		expect(response.status).toBe(413);
	});
});

describe('toolbridge mcp --http refuses to serve beyond loopback without a token', () => {
	it('exit 2 and a message naming --token', async () => {
		const result = await runToolbridge(['mcp', ...textTools, '--http', '0.0.0.0:0']);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('Refusing to listen on 0.0.0.0 without a token');
		expect(result.stderr).not.toContain('    at ');
	});
});

describe('toolbridge mcp --expose-agent: the agent as one more tool', () => {
	let client: Client;
	let model: FakeChatServer;

	beforeAll(async () => {
		model = await startFakeChatServer({
			respond: (request: FakeRequest) => {
				const last = request.body.messages.at(-1);
				return last.role === 'tool'
					? textReply(`The hash is ${JSON.parse(last.content)[0].hash}.`)
					: toolCallReply([{ name: 'Hash_text', arguments: { text: 'agent' } }]);
			},
		});
		const spec = toolbridgeCommand([
			'mcp',
			'fixtures/workflows/crypto-agent.json',
			'--expose-agent',
			'--base-url',
			model.baseUrl,
			'--api-key',
			'sk-fake',
		]);
		client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(
			new StdioClientTransport({
				command: spec.command,
				args: spec.args,
				cwd: spec.cwd,
				env: spec.env,
				stderr: 'pipe',
			}),
		);
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		await model?.close();
	});

	it('lists the agent after its tools and runs the whole loop on a prompt, one progress note per step', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual(['Hash_text', 'MD5_text', 'Agent_Orchestrator']);
		expect(tools[2].inputSchema).toMatchObject({ type: 'object', required: ['prompt'] });
		const progress: string[] = [];
		const result = (await client.callTool(
			{ name: 'Agent_Orchestrator', arguments: { prompt: 'Hash "agent"' } },
			undefined,
			{ onprogress: (note) => void progress.push(note.message ?? '') },
		)) as CallResult;
		expect(result).toMatchObject({
			content: [{ type: 'text', text: `The hash is ${sha256('agent')}.` }],
		});
		expect(result.isError).toBeFalsy();
		expect(progress).toContain('Agent_Orchestrator: started');
		expect(progress.some((note) => /^step 1: Hash_text done \[\d+ ms\]$/.test(note))).toBe(true);
		expect(model.requests[0].body.messages.at(-1)).toEqual({
			role: 'user',
			content: 'Hash "agent"',
		});
		const empty = (await client.callTool({
			name: 'Agent_Orchestrator',
			arguments: { prompt: '' },
		})) as CallResult;
		expect(empty.isError).toBe(true);
	});
});

describe('toolbridge mcp --expose-agent: the task reaches the model whatever the prompt reads', () => {
	let client: Client;
	let model: FakeChatServer;

	beforeAll(async () => {
		model = await startFakeChatServer({
			respond: (request: FakeRequest) =>
				textReply(`You asked: ${request.body.messages.at(-1).content}`),
		});
		// Its prompt reads {{ $json.body.text }} (a Webhook's field), and it has no tools.
		const spec = toolbridgeCommand([
			'mcp',
			'fixtures/workflows/webhook-agent-no-tools.json',
			'--expose-agent',
			'--base-url',
			model.baseUrl,
			'--api-key',
			'sk-fake',
		]);
		client = new Client({ name: 'toolbridge-test', version: '1.0.0' });
		await client.connect(
			new StdioClientTransport({
				command: spec.command,
				args: spec.args,
				cwd: spec.cwd,
				env: spec.env,
				stderr: 'pipe',
			}),
		);
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		await model?.close();
	});

	it('an agent without tools is served; its task is the user message the model receives', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual(['Answer_agent']);
		const result = (await client.callTool({
			name: 'Answer_agent',
			arguments: { prompt: 'What is 2+2*3?' },
		})) as CallResult;
		expect(result).toMatchObject({
			content: [{ type: 'text', text: 'You asked: What is 2+2*3?' }],
		});
		expect(model.requests[0].body.messages).toEqual([
			{ role: 'system', content: 'You answer questions sent to the  channel.' },
			{ role: 'user', content: 'What is 2+2*3?' },
		]);
	});
});
