import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ListenAddress } from './listen-address';

/** A listening server. */
export interface RunningHttpServer {
	server: Server;
	/** `http://host:port` (IPv6 hosts in brackets), the actual port when 0 was asked. */
	url: string;
	port: number;
	/** Stops listening and ends open connections (streams included). */
	close(): Promise<void>;
}

/**
 * Starts a Node HTTP server on `address` with `handle` for every request; a handler that
 * throws gets a bare 500 (handlers answer their own errors in their own format).
 *
 * @throws the listen error (EADDRINUSE, EACCES …).
 */
export async function startHttpServer(address: ListenAddress, handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>): Promise<RunningHttpServer> {
	const sockets = new Set<Socket>();
	const server = createServer((request, response) => {
		handle(request, response).catch(() => {
			if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal server error');
			else response.destroy();
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(address.port, address.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	const host = address.host.includes(':') ? `[${address.host}]` : address.host;
	return {
		server,
		url: `http://${host}:${port}`,
		port,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** Sends a JSON body with a status. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = JSON.stringify(body);
	response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text).toString(), ...headers });
	response.end(text);
}
