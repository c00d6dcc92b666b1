/**
 * A loopback HTTP API for HTTP Request tools: records every request, answers `/items/<id>`,
 * redirects `/redirect?to=URL`, and never answers `/stall` (until the client gives up).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackApi {
	/** `127.0.0.1:<port>` */
	host: string;
	/** Each request's path, and a promise that settles when its connection closes. */
	received: Array<{ path: string; closed: Promise<void> }>;
	close(): Promise<void>;
}

export async function startLoopbackApi(): Promise<LoopbackApi> {
	const received: LoopbackApi['received'] = [];
	const sockets = new Set<Socket>();
	const server = createServer((request: IncomingMessage, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		received.push({
			path: url.pathname + url.search,
			closed: new Promise((resolve) => response.once('close', () => resolve())),
		});
		if (url.pathname === '/stall') return; // never answers
		if (url.pathname === '/redirect') {
			response.writeHead(302, { Location: url.searchParams.get('to') ?? '/' }).end();
			return;
		}
		const item = /^\/items\/(\d+)$/.exec(url.pathname);
		if (item) {
			response
				.writeHead(200, { 'content-type': 'application/json' })
				.end(JSON.stringify({ id: Number(item[1]), name: 'Lamp' }));
			return;
		}
		response
			.writeHead(404, { 'content-type': 'application/json' })
			.end(JSON.stringify({ error: 'not found' }));
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
