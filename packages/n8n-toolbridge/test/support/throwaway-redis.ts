/**
 * A throw-away `redis-server` on a free loopback port (no persistence), for the store tests;
 * undefined when redis-server is not installed (the tests that need it say so and skip).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A running Redis: its URL and how to stop it. */
export interface ThrowawayRedis {
	url: string;
	stop(): Promise<void>;
}

/** True when `redis-server` is on PATH. */
export function redisInstalled(): boolean {
	return spawnSync('redis-server', ['--version']).status === 0;
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as { port: number }).port;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** Starts redis-server and waits until it accepts connections. */
export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
	const port = await freePort();
	const child: ChildProcess = spawn(
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ stdio: 'ignore' },
	);
	const { createClient } = await import('redis');
	const deadline = Date.now() + 10_000;
	for (;;) {
		const client = createClient({
			url: `redis://127.0.0.1:${port}`,
			socket: { reconnectStrategy: false },
		});
		client.on('error', () => {});
		try {
			await client.connect();
			await client.quit();
			break;
		} catch {
			if (Date.now() > deadline) throw new Error('redis-server did not start within 10 s');
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
	return {
		url: `redis://127.0.0.1:${port}`,
		stop: async () => {
			child.kill('SIGTERM');
			await new Promise((resolve) => child.once('exit', resolve));
		},
	};
}
