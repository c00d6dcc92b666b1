import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

const runs = new AsyncLocalStorage<Set<Socket>>();
let subscribed = false;

/** The sockets a node run opened, to close them when the run is cancelled. */
export interface NodeRunSockets<T> {
	result: Promise<T>;
	/** Destroys every socket the run still has open (its requests fail with `reason`). */
	destroy(reason: Error): void;
}

/**
 * Runs `work` while recording every client socket it opens (Node's `net.client.socket`
 * diagnostics channel, which covers http, https and database drivers alike).
 *
 * n8n's execution cancel reaches only requests made through the newest request helper;
 * the HTTP Request node's legacy helper gets no cancel signal and would go on until its
 * own timeout. Destroying the run's sockets stops it (and any other node's network I/O).
 */
export function trackNodeRunSockets<T>(work: () => Promise<T>): NodeRunSockets<T> {
	if (!subscribed) {
		subscribe('net.client.socket', (message) => {
			const sockets = runs.getStore();
			const { socket } = message as { socket: Socket };
			if (!sockets) return;
			sockets.add(socket);
			socket.once('close', () => sockets.delete(socket));
		});
		subscribed = true;
	}
	const sockets = new Set<Socket>();
	return {
		result: runs.run(sockets, work),
		destroy: (reason) => {
			for (const socket of sockets) socket.destroy(reason);
			sockets.clear();
		},
	};
}
