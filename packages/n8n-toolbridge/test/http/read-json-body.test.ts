/** readJsonBody on a real loopback server: size and time bounds, answered before the body ends. */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error';
import { readJsonBody } from '../../src/http/read-json-body';
import { sendJson } from '../../src/http/start-http-server';

let server: Server | undefined;
afterEach(
	() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A server whose every request is read with `readJsonBody(request, maxBytes, { timeoutMs })`. */
async function serve(maxBytes: number, timeoutMs: number): Promise<number> {
	server = createServer((request, response) => {
		readJsonBody(request, maxBytes, { timeoutMs }).then(
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

	it('413 for a declared or an actual body over the limit', async () => {
		const port = await serve(16, 1000);
		expect(await post(port, 100, '{')).toMatchObject({ status: 413 });
	});

	it('400 for a body that is not JSON', async () => {
		const port = await serve(1024, 1000);
		expect(await post(port, 3, 'nop', '')).toMatchObject({
			status: 400,
			body: { type: 'invalid_json' },
		});
	});
});
