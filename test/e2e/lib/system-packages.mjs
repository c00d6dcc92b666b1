// @ts-check
/**
 * Postgres and Redis for the queue-mode e2e: Debian's `postgresql` and `redis-server`, taken
 * from the machine when present, else installed once with apt-get (CI machines are fresh).
 * Debian keeps the Postgres server programs out of PATH, in /usr/lib/postgresql/<major>/bin.
 */
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

import { acquireLock } from './lock.mjs';
import { cacheRoot } from './provision.mjs';
import { runChecked } from './run-command.mjs';

/**
 * @typedef {object} ServerPrograms
 * @property {string} postgresBinDir directory holding initdb, postgres, pg_ctl, pg_isready
 * @property {string} redisServer the redis-server binary
 * @property {string[]} installed Debian packages this call installed ([] when all were there)
 */

/**
 * The first executable `name` on PATH.
 * @param {string} name
 * @returns {string | undefined}
 */
export function which(name) {
	for (const dir of (process.env.PATH ?? '').split(delimiter)) {
		if (dir && existsSync(join(dir, name))) return join(dir, name);
	}
	return undefined;
}

/**
 * Directory of the Postgres server programs: the newest /usr/lib/postgresql/<major>/bin with an
 * initdb, else the directory of an initdb on PATH.
 * @returns {string | undefined}
 */
export function findPostgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (existsSync(root)) {
		const majors = readdirSync(root)
			.filter((entry) => /^\d+$/.test(entry) && existsSync(join(root, entry, 'bin', 'initdb')))
			.sort((a, b) => Number(b) - Number(a));
		if (majors.length > 0) return join(root, majors[0], 'bin');
	}
	const initdb = which('initdb');
	return initdb && existsSync(join(initdb, '..', 'postgres')) ? join(initdb, '..') : undefined;
}

/**
 * Find Postgres and Redis; install the missing Debian packages with apt-get (as root, or through
 * `sudo -n`). Serialized by a lock so two runs never run apt-get at once.
 * @param {{ log?: (line: string) => void, logPath?: string }} [options]
 * @returns {Promise<ServerPrograms>}
 * @throws {Error} when a package is missing and cannot be installed
 */
export async function ensureServerPrograms(options = {}) {
	const log = options.log ?? ((line) => console.log(line));
	const found = () => ({
		postgresBinDir: findPostgresBinDir(),
		redisServer:
			which('redis-server') ??
			(existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined),
	});
	let { postgresBinDir, redisServer } = found();
	/** @type {string[]} */
	const installed = [];
	if (!postgresBinDir || !redisServer) {
		const release = await acquireLock(join(cacheRoot(), 'apt.lock'), {
			log,
			timeoutMs: 20 * 60_000,
		});
		try {
			({ postgresBinDir, redisServer } = found());
			const missing = [
				...(postgresBinDir ? [] : ['postgresql']),
				...(redisServer ? [] : ['redis-server']),
			];
			if (missing.length > 0) {
				const isRoot = process.getuid?.() === 0;
				if (!isRoot && !which('sudo'))
					throw new Error(`missing ${missing.join(', ')} and not root (no sudo to run apt-get)`);
				const command = isRoot ? 'apt-get' : 'sudo';
				const prefix = isRoot ? [] : ['-n', 'apt-get'];
				const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
				log(`installing ${missing.join(', ')} with apt-get …`);
				const started = Date.now();
				await runChecked(command, [...prefix, 'update'], {
					env,
					logPath: options.logPath,
					timeoutMs: 10 * 60_000,
				});
				await runChecked(
					command,
					[...prefix, 'install', '-y', '--no-install-recommends', ...missing],
					{ env, logPath: options.logPath, timeoutMs: 15 * 60_000 },
				);
				log(`installed ${missing.join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
				installed.push(...missing);
				({ postgresBinDir, redisServer } = found());
			}
		} finally {
			release();
		}
	}
	if (!postgresBinDir)
		throw new Error('no Postgres server programs (initdb, postgres) after installing postgresql');
	if (!redisServer) throw new Error('no redis-server after installing redis-server');
	return { postgresBinDir, redisServer, installed };
}
