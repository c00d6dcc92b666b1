/** readJsonBody on a real loopback server: size and time bounds, answered before the body ends. */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error';
import { readJsonBody } from '../../src/http/read-json-body';
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
		const started = Date.now();
		const reply = await post(port, 100, '{"a":');
		expect(reply).toMatchObject({
			status: 408,
			body: { type: 'request_timeout' },
			connection: 'close',
		});
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it('413 and Connection: close for a body declared far over the limit (more than 4×), unread', async () => {
		const port = await serve(16, 1000);
		expect(await post(port, 100, '{')).toMatchObject({ status: 413, connection: 'close' });
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

	it('a body declared up to 4× the limit is dropped, so a client that sends it all reads the 413 (no reset)', async () => {
		const port = await serve(16, 1000);
		const reply = await post(port, 60, 'x'.repeat(30), 'x'.repeat(30), 50);
		expect(reply).toMatchObject({ status: 413, body: { type: 'request_too_large' } });
		expect(reply.connection).not.toBe('close');
	});

	it('a sender that stalls inside such a body is cut after the linger time', async () => {
		const port = await serve(16, 1000, 200);
		const started = Date.now();
		const closed = await new Promise<number>((resolve) => {
			const request = httpRequest({
				port,
				host: '127.0.0.1',
				method: 'POST',
				headers: { 'content-length': 60 },
			});
			request.on('response', (response) => response.resume());
			request.on('close', () => resolve(Date.now() - started));
			request.on('error', () => undefined);
			request.write('x'.repeat(10));
		});
		expect(closed).toBeGreaterThanOrEqual(150);
		expect(closed).toBeLessThan(5000);
	});

	it('400 for a body that is not JSON', async () => {
		const port = await serve(1024, 1000);
		expect(await post(port, 3, 'nop', '')).toMatchObject({
			status: 400,
			body: { type: 'invalid_json' },
		});
	});
});
