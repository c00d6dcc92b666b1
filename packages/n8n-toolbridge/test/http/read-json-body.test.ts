/** readJsonBody on a real loopback server: size and time bounds, answered before the body ends. */
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error';
import { DEFAULT_MAX_JSON_DEPTH } from '../../src/http/json-nesting-depth';
import { MAX_DRAINED_BODY_BYTES, readJsonBody } from '../../src/http/read-json-body';
import { sendJson } from '../../src/http/start-http-server';

let server: Server | undefined;
afterEach(
	() =>
		new Promise<void>((resolve) => {
			if (!server) return resolve();
			// Kept-alive client connections would hold close() for the agent's idle time.
			server.closeAllConnections();
			server.close(() => resolve());
		}),
);

/** A server whose every request is read with `readJsonBody(request, maxBytes, { timeoutMs })`. */
async function serve(maxBytes: number, timeoutMs: number, lingerMs?: number): Promise<number> {
	server = createServer((request, response) => {
		readJsonBody(request, maxBytes, { timeoutMs, lingerMs }).then(
			(body) => sendJson(response, 200, { body }),
			(error: HttpError) => sendJson(response, error.status, { type: error.type }, error.headers),
		);
	});
	await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

/** POSTs `first`, then (unless undefined) `rest` after `delayMs`; resolves with status and body. */
function post(port: number, length: number, first: string, rest?: string, delayMs = 0) {
	return new Promise<{ status: number; body: unknown; connection?: string }>((resolve, reject) => {
		const request = httpRequest(
			{ port, host: '127.0.0.1', method: 'POST', headers: { 'content-length': length } },
			(response) => {
				let text = '';
				response.on('data', (piece) => (text += piece));
				response.on('end', () =>
					resolve({
						status: response.statusCode!,
						body: JSON.parse(text),
						connection: response.headers.connection,
					}),
				);
			},
		);
		request.on('error', reject);
		request.write(first);
		if (rest !== undefined) setTimeout(() => request.end(rest), delayMs);
	});
}

/** POSTs `body` whole through `agent`; resolves with status, body and Connection header. */
function send(agent: Agent, port: number, body: string) {
	return new Promise<{ status: number; body: unknown; connection?: string }>((resolve, reject) => {
		const request = httpRequest({ port, host: '127.0.0.1', method: 'POST', agent }, (response) => {
			let text = '';
			response.on('data', (piece) => (text += piece));
			response.on('end', () =>
				resolve({
					status: response.statusCode!,
					body: JSON.parse(text),
					connection: response.headers.connection,
				}),
			);
		});
		request.on('error', reject);
		request.end(body);
	});
}

describe('readJsonBody', () => {
	it('reads a JSON body', async () => {
		const port = await serve(1024, 1000);
		expect(await post(port, 8, '{"a":', '12}')).toMatchObject({
			status: 200,
			body: { body: { a: 12 } },
		});
	});

	it('408 and Connection: close when the body does not arrive in time (no wait for the rest)', async () => {
		const port = await serve(1024, 200);
		// The client never sends the rest: only the server's own timeout can answer.
		const reply = await post(port, 100, '{"a":');
		expect(reply).toMatchObject({
			status: 408,
			body: { type: 'request_timeout' },
			connection: 'close',
		});
	});

	it('413 and Connection: close for a body declared over 64 MiB, unread', async () => {
		const port = await serve(16, 1000);
		expect(await post(port, MAX_DRAINED_BODY_BYTES + 1, '{')).toMatchObject({
			status: 413,
			connection: 'close',
		});
	});

	it('413 and Connection: close for a chunked body once it passes the limit', async () => {
		const port = await serve(16, 1000);
		const reply = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
			const request = httpRequest(
				{ port, host: '127.0.0.1', method: 'POST', headers: { 'transfer-encoding': 'chunked' } },
				(response) => {
					response.resume();
					response.on('end', () =>
						resolve({ status: response.statusCode!, connection: response.headers.connection }),
					);
				},
			);
			request.on('error', reject);
			request.write('x'.repeat(40));
		});
		expect(reply).toEqual({ status: 413, connection: 'close' });
	});

	it('a 10 MB body (declared, at most 64 MiB) is read and dropped: its sender reads the 413 and the kept-alive connection answers the next request', async () => {
		const port = await serve(1024 * 1024, 30_000);
		let connections = 0;
		server!.on('connection', () => connections++);
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const refused = await send(agent, port, 'x'.repeat(10_000_000));
			expect(refused).toMatchObject({ status: 413, body: { type: 'request_too_large' } });
			expect(refused.connection).not.toBe('close');
			const next = await send(agent, port, '{"after":1}');
			expect(next).toMatchObject({ status: 200, body: { body: { after: 1 } } });
			expect(connections).toBe(1);
		} finally {
			agent.destroy();
		}
	});

	it('a sender that stalls inside such a body gets the 413, then its connection is cut after the linger time', async () => {
		const port = await serve(16, 60_000, 50);
		const events: string[] = [];
		await new Promise<void>((resolve) => {
			const request = httpRequest({
				port,
				host: '127.0.0.1',
				method: 'POST',
				headers: { 'content-length': 60 },
			});
			request.on('response', (response) => {
				events.push(`status ${response.statusCode}`);
				response.resume();
			});
			// Without the linger bound nothing would end this request: the test would time out.
			request.on('close', () => resolve());
			request.on('error', () => undefined);
			request.write('x'.repeat(10));
		});
		expect(events).toEqual(['status 413']);
	});

	it.each([
		['an array', (depth: number) => '['.repeat(depth) + ']'.repeat(depth)],
		['an object', (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)],
	])('400 json_too_deep for %s nested 50,000 levels; the limit itself passes', async (_, nest) => {
		const port = await serve(1024 * 1024, 30_000);
		const deep = nest(50_000);
		expect(await post(port, deep.length, deep, '')).toMatchObject({
			status: 400,
			body: { type: 'json_too_deep' },
		});
		const atLimit = nest(DEFAULT_MAX_JSON_DEPTH);
		expect(await post(port, atLimit.length, atLimit, '')).toMatchObject({ status: 200 });
		const overLimit = nest(DEFAULT_MAX_JSON_DEPTH + 1);
		expect(await post(port, overLimit.length, overLimit, '')).toMatchObject({ status: 400 });
	});

	it('400 for a body that is not JSON', async () => {
		const port = await serve(1024, 1000);
		expect(await post(port, 3, 'nop', '')).toMatchObject({
			status: 400,
			body: { type: 'invalid_json' },
		});
	});
});
