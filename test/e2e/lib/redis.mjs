// @ts-check
/**
 * A throw-away Redis: `redis-server` on a free loopback port with a temp working dir and no
 * persistence, stopped (and its dir deleted) by `stop()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from './free-port.mjs';
import { tailFile } from './run-command.mjs';
import { killGroup, spawnService, stopChild } from './service-process.mjs';

/**
 * Send one inline command and read the first reply line.
 * @param {number} port
 * @param {string} command e.g. `PING`
 * @returns {Promise<string>}
 */
export function redisCommand(port, command) {
	return new Promise((resolve, reject) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		let reply = '';
		socket.setTimeout(2000, () => socket.destroy(new Error('redis: no reply within 2 s')));
		socket.on('connect', () => socket.write(`${command}\r\n`));
		socket.on('data', (data) => {
			reply += data.toString('utf8');
			if (reply.includes('\r\n')) {
				socket.end();
				resolve(reply.split('\r\n')[0]);
			}
		});
		socket.on('error', reject);
	});
}

/**
 * A running throw-away Redis.
 */
export class RedisServer {
	/**
	 * @param {{ redisServer: string }} options the binary
	 */
	constructor(options) {
		this.binary = options.redisServer;
		this.folder = mkdtempSync(join(tmpdir(), 'toolbridge-e2e-redis-'));
		this.logPath = join(this.folder, 'redis.log');
		this.port = 0;
		/** @type {import('node:child_process').ChildProcess | undefined} */
		this.server = undefined;
		this.killOnExit = () => killGroup(this.server);
	}

	/**
	 * Start on a free port and wait for `PONG`.
	 * @returns {Promise<void>}
	 * @throws {Error} with the log tail when it does not come up
	 */
	async start() {
		this.port = await freePort();
		const { child, exited } = spawnService(
			this.binary,
			[
				'--port',
				String(this.port),
				'--bind',
				'127.0.0.1',
				'--dir',
				this.folder,
				'--save',
				'',
				'--appendonly',
				'no',
				'--daemonize',
				'no',
				'--protected-mode',
				'yes',
			],
			{ cwd: this.folder, logPath: this.logPath, killOnExit: this.killOnExit },
		);
		this.server = child;
		const deadline = Date.now() + 30_000;
		for (;;) {
			if (exited())
				throw new Error(
					`redis-server ${exited()} (log ${this.logPath}):\n${tailFile(this.logPath, 30)}`,
				);
			try {
				if ((await redisCommand(this.port, 'PING')) === '+PONG') return;
			} catch {
				// not listening yet
			}
			if (Date.now() > deadline)
				throw new Error(
					`redis-server not ready after 30 s (log ${this.logPath}):\n${tailFile(this.logPath, 30)}`,
				);
			await sleep(100);
		}
	}

	/**
	 * SIGTERM (Redis exits at once without persistence), SIGKILL after 10 s; delete the dir unless `keep`.
	 * @param {boolean} [keep]
	 * @returns {Promise<string | undefined>} the folder when kept
	 */
	async stop(keep = false) {
		const server = this.server;
		await stopChild(server, {
			ask: () => server?.kill('SIGTERM'),
			force: this.killOnExit,
			graceMs: 10_000,
		});
		process.removeListener('exit', this.killOnExit);
		this.server = undefined;
		if (keep) return this.folder;
		rmSync(this.folder, { recursive: true, force: true });
		return undefined;
	}
}
