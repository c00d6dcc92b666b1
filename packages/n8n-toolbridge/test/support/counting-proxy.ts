/**
 * A loopback TCP proxy in front of a server that counts the HTTP requests passing through it
 * (the request lines clients send): what reached the server, a client's retries included. It
 * forwards bytes as they come and passes a reset on as a reset, so clients see the server's
 * own behaviour.
 */
import { connect, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface CountingProxy {
	/** `http://127.0.0.1:<port>` */
	url: string;
	/** How many requests for `path` (e.g. `POST /mcp`) have passed so far. */
	count(requestLine: string): number;
	close(): Promise<void>;
}

const REQUEST_LINE = /(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP\/1\.[01]\r\n/g;
/** Bytes kept between chunks so that a request line cut in two is still seen. */
const CARRY = 4096;

/** Starts a proxy to `target` (`http://host:port`). */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
	const { hostname, port } = new URL(target);
	const seen: string[] = [];
	const sockets = new Set<Socket>();
	const server = createServer((client) => {
		const upstream = connect(Number(port), hostname);
		sockets.add(client).add(upstream);
		let pending = '';
		client.on('data', (chunk: Buffer) => {
			pending += chunk.toString('latin1');
			let consumed = 0;
			for (const match of pending.matchAll(REQUEST_LINE)) {
				seen.push(`${match[1]} ${match[2]}`);
				consumed = match.index + match[0].length;
			}
			pending = pending.slice(Math.max(consumed, pending.length - CARRY));
		});
		client.pipe(upstream);
		upstream.pipe(client);
		const forward = (from: Socket, to: Socket) => {
			from.on('error', () => (to.destroyed ? undefined : to.resetAndDestroy()));
			from.on('close', () => {
				sockets.delete(from);
				to.end();
			});
		};
		forward(client, upstream);
		forward(upstream, client);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${address.port}`,
		count: (requestLine) => seen.filter((line) => line === requestLine).length,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
