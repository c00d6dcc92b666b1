/**
 * `toolbridge mcp` and MCP 2026-07-28 (no handshake, `server/discover`, `_meta` on every
 * request), driven by the official SDK v2 client pinned to that revision, over stdio and
 * Streamable HTTP: the real CLI process, real n8n nodes, a loopback API for HTTP tools.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020';
import { loadWorkflowTools } from 'n8n-nodes-toolbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJsonSchema2020 } from '../../src/mcp/json-schema-2020';
import { startLoopbackApi, type LoopbackApi } from '../support/loopback-api';
import { v2HttpClient, v2StdioClient } from '../support/mcp-v2-clients';
import {
	repoRoot,
	startToolbridgeServer,
	type ToolbridgeServer,
} from '../support/toolbridge-process';

const textTools = [
	'fixtures/workflows/text-tools.json',
	'--package',
	'fixtures/packages/n8n-nodes-toolbridge-fixture',
];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type CallResult = {
	content: Array<{ type: string; text: string }>;
	isError?: boolean;
	structuredContent?: unknown;
};

describe('toolbridge mcp over stdio, MCP 2026-07-28 (SDK v2 client)', () => {
	let client: Client;

	beforeAll(async () => {
		client = await v2StdioClient(['mcp', ...textTools], 'modern');
	}, 120_000);

	afterAll(async () => {
		await client?.close();
	});

	it('opens without a handshake: 2026-07-28, the server named after the workflow', () => {
		expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
		expect(client.getServerVersion()?.name).toBe('toolbridge: Toolbridge text tools');
		expect(client.getInstructions()).toContain('each runs a real n8n node');
	});

	it('tools/list: the schemas as JSON Schema 2020-12 (strict 2020-12 validator), titles and hints', async () => {
		const { tools } = await client.listTools();
		const expected = await loadWorkflowTools(`${repoRoot}/fixtures/workflows/text-tools.json`, {
			packageDirs: [`${repoRoot}/fixtures/packages/n8n-nodes-toolbridge-fixture`],
			env: {},
		});
		const ajv = new Ajv2020({ strict: true });
		expect(tools.map((tool) => tool.name)).toEqual(expected.tools.map((tool) => tool.name));
		for (const tool of tools) {
			const source = expected.tools.find((candidate) => candidate.name === tool.name)!;
			expect(tool.inputSchema).toEqual(toJsonSchema2020(source.parameters));
			expect(tool.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
			expect(ajv.validateSchema(tool.inputSchema), JSON.stringify(ajv.errors)).toBe(true);
			expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
		}
		expect(tools[0]).toMatchObject({
			name: 'Hash_text',
			title: 'Hash text',
			annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
		});
	});

	it('tools/call runs the real node: text beside structuredContent', async () => {
		const result = (await client.callTool({
			name: 'Hash_text',
			arguments: { text: 'over 2026' },
		})) as CallResult;
		expect(result.isError).toBeFalsy();
		expect(JSON.parse(result.content[0].text)).toEqual([{ sha256: sha256('over 2026') }]);
		expect(result.structuredContent).toEqual({ result: [{ sha256: sha256('over 2026') }] });
	});
});

describe('toolbridge mcp --http, MCP 2026-07-28 (SDK v2 client)', () => {
	const token = 'test-token-2026';
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
				TOOLBRIDGE_CREDENTIALS: JSON.stringify({
					'Inventory API key': { name: 'X-Api-Key', value: 'sk-test-secret' },
				}),
			},
		);
		client = await v2HttpClient(`${server.url}/mcp`, 'modern', { token });
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		expect(await server?.stop()).toBe(0);
		await api?.close();
	});

	it('lists and calls tools; the calls are self-contained requests', async () => {
		expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual(['Fetch_item', 'Search_items']);
		expect(tools[0].annotations).toMatchObject({ openWorldHint: true, readOnlyHint: true });
		const result = (await client.callTool({
			name: 'Fetch_item',
			arguments: { url: `http://${api.host}/items/7` },
		})) as CallResult;
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toEqual({ result: [{ id: 7, name: 'Lamp' }] });
		expect(server.stderr()).not.toContain('sk-test-secret');
	});

	it('tools/list on the wire carries the cache hints (ttlMs, cacheScope)', async () => {
		const meta = {
			'io.modelcontextprotocol/protocolVersion': '2026-07-28',
			'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
			'io.modelcontextprotocol/clientCapabilities': {},
		};
		const response = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream',
				Authorization: `Bearer ${token}`,
				'MCP-Protocol-Version': '2026-07-28',
				'Mcp-Method': 'tools/list',
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'tools/list',
				params: { _meta: meta },
			}),
		});
		expect(response.status).toBe(200);
		expect(((await response.json()) as { result: unknown }).result).toMatchObject({
			resultType: 'complete',
			ttlMs: 60_000,
			cacheScope: 'public',
		});
	});

	it("progress while a call runs; the client giving up aborts the node's HTTP request", async () => {
		const controller = new AbortController();
		const progress: string[] = [];
		const call = client.callTool(
			{ name: 'Fetch_item', arguments: { url: `http://${api.host}/stall` } },
			{
				signal: controller.signal,
				onprogress: (note) => void progress.push(note.message ?? ''),
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
		await expect(
			Promise.race([
				stalled.closed.then(() => 'closed'),
				new Promise((resolve) => setTimeout(() => resolve('still open'), 10_000)),
			]),
		).resolves.toBe('closed');
		expect(progress[0]).toBe('Fetch_item: started');
		await expect
			.poll(() => server.stderr(), { timeout: 10_000 })
			.toContain('tools/call Fetch_item → cancelled');
	});
});
