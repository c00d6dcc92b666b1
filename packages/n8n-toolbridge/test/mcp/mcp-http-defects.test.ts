/**
 * Three defects of the first MCP HTTP server, each shown on the real `toolbridge mcp --http`
 * process with raw HTTP (what a hostile token holder can send): a JSON-RPC batch ran any
 * number of tool calls at once, a body trickled byte by byte held a concurrency slot, and a
 * token holder could open sessions until others were locked out.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startToolbridgeServer, type ToolbridgeServer } from '../support/toolbridge-process';

const token = 'defects-token-1';
const headers = {
	'Content-Type': 'application/json',
	Accept: 'application/json, text/event-stream',
	Authorization: `Bearer ${token}`,
};
const initialize = (id: number) => ({
	jsonrpc: '2.0',
	id,
	method: 'initialize',
	params: {
		protocolVersion: '2025-03-26',
		capabilities: {},
		clientInfo: { name: 'hostile', version: '1' },
	},
});
const hashCall = (id: number) => ({
	jsonrpc: '2.0',
	id,
	method: 'tools/call',
	params: { name: 'Hash_text', arguments: { text: `call ${id}` } },
});

describe('toolbridge mcp --http under --max-concurrency 2', () => {
	let server: ToolbridgeServer;

	beforeAll(async () => {
		server = await startToolbridgeServer(
			[
				'mcp',
				'fixtures/workflows/crypto-agent.json',
				'--http',
				'127.0.0.1:0',
				'--max-concurrency',
				'2',
			],
			{ TOOLBRIDGE_TOKEN: token },
		);
		// Tools loaded: tool calls answer at once from here on.
		while ((await fetch(`${server.url}/healthz`)).status !== 200)
			await new Promise((resolve) => setTimeout(resolve, 100));
	}, 120_000);

	afterAll(async () => {
		expect(await server?.stop()).toBe(0);
	});

	it('a 2025-03-26 batch of 6 tool calls needs 6 slots: 429, nothing runs', async () => {
		const response = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers: await openedHeaders(server.url),
			body: JSON.stringify([1, 2, 3, 4, 5, 6].map(hashCall)),
		});
		expect(response.status).toBe(429);
		expect(response.headers.get('retry-after')).toBe('1');
		expect(await response.json()).toMatchObject({
			error: {
				message: expect.stringContaining(
					'carries 6 calls, more than the server runs at once (limit 2)',
				),
			},
		});
		expect(server.stderr()).not.toContain('tools/call Hash_text');
	});

	it('a batch of 2 calls takes both slots and runs', async () => {
		const response = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers: await openedHeaders(server.url),
			body: JSON.stringify([1, 2].map(hashCall)),
		});
		expect(response.status).toBe(200);
		const text = await response.text();
		expect(text).toContain('"id":1');
		expect(text).toContain('"id":2');
	});

	it('a batch under 2025-06-18 or later (no batches in that protocol) is refused: 400, -32600', async () => {
		const response = await fetch(`${server.url}/mcp`, {
			method: 'POST',
			headers: { ...(await openedHeaders(server.url)), 'MCP-Protocol-Version': '2025-06-18' },
			body: JSON.stringify([hashCall(1), hashCall(2)]),
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toMatchObject({
			error: {
				code: -32600,
				message: expect.stringContaining('batches are not part of MCP 2025-06-18'),
			},
		});
	});

	it('two clients trickling their bodies hold no slot: a normal request still gets through', async () => {
		const sockets = [trickle(server.url), trickle(server.url)];
		try {
			// Both are well into their bodies before the normal request.
			await new Promise((resolve) => setTimeout(resolve, 300));
			const response = await fetch(`${server.url}/mcp`, {
				method: 'POST',
				headers,
				body: JSON.stringify(initialize(1)),
			});
			expect(response.status).toBe(200);
			await response.text();
		} finally {
			for (const socket of sockets) socket.destroy();
		}
	});

	it('no sessions to exhaust: 40 initializes in a row are all answered, none with a session id', async () => {
		const statuses: number[] = [];
		const sessionIds: string[] = [];
		for (let id = 1; id <= 40; id++) {
			const response = await fetch(`${server.url}/mcp`, {
				method: 'POST',
				headers,
				body: JSON.stringify(initialize(id)),
			});
			statuses.push(response.status);
			const sessionId = response.headers.get('mcp-session-id');
			if (sessionId) sessionIds.push(sessionId);
			await response.text();
		}
		expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
		expect(sessionIds).toEqual([]);
	});
});

/**
 * The headers of requests after the opening: with the session id when the server issues one
 * (the first server did: a batch then ran inside that session), none when it is stateless.
 */
async function openedHeaders(url: string): Promise<Record<string, string>> {
	const response = await fetch(`${url}/mcp`, {
		method: 'POST',
		headers,
		body: JSON.stringify(initialize(1)),
	});
	await response.text();
	const sessionId = response.headers.get('mcp-session-id');
	return sessionId ? { ...headers, 'Mcp-Session-Id': sessionId } : headers;
}

/** A POST whose body arrives a byte every 100 ms (declared 200 bytes). */
function trickle(url: string): Socket {
	const { hostname, port } = new URL(url);
	const socket = connect(Number(port), hostname);
	const body = JSON.stringify(initialize(99)).padEnd(200, ' ');
	socket.write(
		`POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\n\r\n`,
	);
	let sent = 0;
	const timer = setInterval(() => {
		if (socket.destroyed || sent >= body.length) return clearInterval(timer);
		socket.write(body[sent++]);
	}, 100);
	socket.on('close', () => clearInterval(timer));
	socket.on('error', () => undefined);
	return socket;
}
