// @ts-check
/**
 * Free loopback TCP ports for n8n's HTTP server and its task-runner broker.
 */
import { createServer } from 'node:net';

/**
 * Ask the OS for a free port on 127.0.0.1.
 * @returns {Promise<number>}
 * @throws {Error} when no port can be bound
 */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
		});
	});
}

/**
 * `count` distinct free ports.
 * @param {number} count
 * @returns {Promise<number[]>}
 * @throws {Error} when no port can be bound
 */
export async function freePorts(count) {
	const ports = new Set();
	while (ports.size < count) ports.add(await freePort());
	return [...ports];
}
