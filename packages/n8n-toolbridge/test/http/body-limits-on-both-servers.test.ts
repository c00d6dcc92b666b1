/**
 * The body bounds at both servers' doors, on the real CLI processes: a body nested 50,000
 * levels deep is a 400 (never a 500), and a 10 MB body on a kept-alive connection gets a
 * readable 413 that the official clients do not retry — `toolbridge serve` with the `openai`
 * client, `toolbridge mcp --http` with the MCP SDK v2 client, both also with raw fetch. A
 * counting proxy in front of each server counts the requests that reached it.
 */
import type { Client } from '@modelcontextprotocol/client';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_JSON_DEPTH } from '../../src/http/json-nesting-depth';
import { startCountingProxy, type CountingProxy } from '../support/counting-proxy';
import {
	agentModel,
	hashAnswer,
	serveToken,
	startHashingServe,
	sha256,
	type HashingServe,
} from '../support/hashing-serve';
import { v2HttpClient } from '../support/mcp-v2-clients';
import { startToolbridgeServer, type ToolbridgeServer } from '../support/toolbridge-process';

const TEN_MB = 10_000_000;
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** A value nested `depth` levels deep (what a client builds before JSON.stringify). */
const nestedValue = (depth: number): unknown => JSON.parse(nestedObject(depth));
const tooDeep = `more than ${DEFAULT_MAX_JSON_DEPTH} levels deep`;

describe('toolbridge serve: deep and oversized bodies', () => {
	let serve: HashingServe;
	let proxy: CountingProxy;
	let client: OpenAI;

	beforeAll(async () => {
		serve = await startHashingServe();
		proxy = await startCountingProxy(serve.server.url);
		// The client's own retry policy stays on (2 retries): a 413 must not trigger it.
		client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: serveToken, maxRetries: 2 });
	}, 120_000);

	afterAll(async () => {
		await proxy?.close();
		expect(await serve?.stop()).toBe(0);
	});

	it('a 10 MB chat completion: APIError 413 in OpenAI shape, sent once (no retry); the same client is answered next', async () => {
		const error = await client.chat.completions
			.create({ model: agentModel, messages: [{ role: 'user', content: 'x'.repeat(TEN_MB) }] })
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(APIError);
		expect(error).toMatchObject({
			status: 413,
			code: 'request_too_large',
			type: 'invalid_request_error',
			message: expect.stringContaining('larger than 1048576 bytes'),
		});
		expect(proxy.count('POST /v1/chat/completions')).toBe(1);
		const completion = await client.chat.completions.create({
			model: agentModel,
			messages: [{ role: 'user', content: 'SHA-256 of "after"' }],
		});
		expect(completion.choices[0].message.content).toBe(hashAnswer('after'));
		expect(proxy.count('POST /v1/chat/completions')).toBe(2);
	});

	it('a 10 MB response request: APIError 413, sent once', async () => {
		const error = await client.responses
			.create({ model: agentModel, input: 'x'.repeat(TEN_MB) })
			.catch((caught: unknown) => caught);
		expect(error).toMatchObject({ status: 413, code: 'request_too_large' });
		expect(proxy.count('POST /v1/responses')).toBe(1);
	});

	it.each(['/v1/chat/completions', '/v1/responses'])(
		'%s: a body nested 50,000 levels deep (array or object) is a 400 in OpenAI shape naming the limit',
		async (path) => {
			for (const body of [nestedArray(50_000), nestedObject(50_000)]) {
				const response = await fetch(`${serve.server.url}${path}`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${serveToken}` },
					body,
				});
				expect(response.status).toBe(400);
				expect(await response.json()).toEqual({
					error: {
						message: expect.stringContaining(tooDeep),
						type: 'invalid_request_error',
						param: null,
						code: 'json_too_deep',
					},
				});
			}
		},
	);

	it('the openai client sending a request nested 1,000 levels deep gets a BadRequestError', async () => {
		const error = await client.chat.completions
			.create({
				model: agentModel,
				messages: [{ role: 'user', content: 'hi' }],
				metadata: nestedValue(1000) as Record<string, string>,
			})
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(OpenAI.BadRequestError);
		expect(error).toMatchObject({ status: 400, code: 'json_too_deep' });
	});
});

describe('toolbridge mcp --http: deep and oversized bodies', () => {
	const token = 'body-limits-token';
	let server: ToolbridgeServer;
	let proxy: CountingProxy;
	let client: Client;
	const headers = {
		'Content-Type': 'application/json',
		Accept: 'application/json, text/event-stream',
		Authorization: `Bearer ${token}`,
	};

	beforeAll(async () => {
		server = await startToolbridgeServer(
			['mcp', 'fixtures/workflows/crypto-agent.json', '--http', '127.0.0.1:0'],
			{ TOOLBRIDGE_TOKEN: token },
		);
		proxy = await startCountingProxy(server.url);
		client = await v2HttpClient(`${proxy.url}/mcp`, 'modern', { token });
	}, 120_000);

	afterAll(async () => {
		await client?.close();
		await proxy?.close();
		expect(await server?.stop()).toBe(0);
	});

	it('a body nested 50,000 levels deep (array or object): 400, JSON-RPC parse error naming the limit; the server answers next', async () => {
		for (const body of [nestedArray(50_000), nestedObject(50_000)]) {
			const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body });
			expect(response.status).toBe(400);
			expect(await response.json()).toEqual({
				jsonrpc: '2.0',
				error: { code: -32700, message: expect.stringContaining(tooDeep) },
				id: null,
			});
		}
		const result = await client.callTool({ name: 'Hash_text', arguments: { text: 'after' } });
		expect(JSON.stringify(result.content)).toContain(sha256('after'));
	});

	it('the MCP client calling a tool with an argument nested 1,000 levels deep gets the parse error', async () => {
		await expect(
			client.callTool({ name: 'Hash_text', arguments: { text: 'x', extra: nestedValue(1000) } }),
		).rejects.toThrow(tooDeep);
	});

	it('a 10 MB tools/call: the MCP client reads the 413, sent once; its next call is answered', async () => {
		const before = proxy.count('POST /mcp');
		await expect(
			client.callTool({ name: 'Hash_text', arguments: { text: 'x'.repeat(TEN_MB) } }),
		).rejects.toThrow(/413|larger than 1048576 bytes/);
		expect(proxy.count('POST /mcp')).toBe(before + 1);
		const result = await client.callTool({ name: 'Hash_text', arguments: { text: 'after' } });
		expect(JSON.stringify(result.content)).toContain(sha256('after'));
	});

	it('raw fetch: a 10 MB body gets a readable 413 with a JSON-RPC error', async () => {
		const response = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers,
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'tools/call',
				params: { name: 'Hash_text', arguments: { text: 'x'.repeat(TEN_MB) } },
			}),
		});
		expect(response.status).toBe(413);
		expect(await response.json()).toEqual({
			jsonrpc: '2.0',
			error: { code: -32000, message: 'The request body is larger than 1048576 bytes.' },
			id: null,
		});
	});
});
