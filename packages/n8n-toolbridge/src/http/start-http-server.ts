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

/** The error body a server answers with, in its own protocol's format. */
export interface ErrorReply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/**
 * Starts a Node HTTP server on `address` with `handle` for every request. A handler that
 * throws before answering gets `errorReply(error)` as JSON (each server's own error format);
 * one that throws mid-answer has its response destroyed.
 *
 * @throws the listen error (EADDRINUSE, EACCES …).
 */
export async function startHttpServer(
	address: ListenAddress,
	handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
	errorReply: (error: unknown) => ErrorReply,
): Promise<RunningHttpServer> {
	const sockets = new Set<Socket>();
	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			if (response.headersSent) {
				response.destroy();
				return;
			}
			const reply = errorReply(error);
			sendJson(response, reply.status, reply.body, reply.headers);
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
export function sendJson(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const text = JSON.stringify(body);
	response.writeHead(status, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text).toString(),
		...headers,
	});
	response.end(text);
}
