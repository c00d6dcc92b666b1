// @ts-check
/**
 * A throw-away Postgres server: `initdb` into a temp data dir, `postgres` on a free loopback
 * port (trust auth, no durability — a test database), stopped and deleted by `stop()`.
 *
 * Postgres refuses to run as root, so when this process is root the server runs as the
 * unprivileged `postgres` account the Debian package creates (through `runuser`), which owns
 * the data dir; any other user runs it directly.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from './free-port.mjs';
import { runChecked, tailFile } from './run-command.mjs';
import { killGroup, spawnService, stopChild } from './service-process.mjs';

/** The superuser initdb creates; with trust auth it needs no password. */
export const POSTGRES_USER = 'postgres';

/**
 * The OS account the server runs as, and how to run a program as it.
 * @returns {{ name: string, uid: number, gid: number, wrap: (program: string, args: string[]) => [string, string[]] }}
 * @throws {Error} when running as root and no unprivileged `postgres` account exists
 */
function serverAccount() {
	const uid = process.getuid?.() ?? 0;
	if (uid !== 0) {
		return {
			name: String(uid),
			uid,
			gid: process.getgid?.() ?? 0,
			wrap: (program, args) => [program, args],
		};
	}
	const id = (/** @type {string} */ flag) =>
		spawnSync('id', [flag, POSTGRES_USER], { encoding: 'utf8' });
	const uidResult = id('-u');
	if (uidResult.status !== 0) {
		throw new Error(
			`running as root, and there is no '${POSTGRES_USER}' account to run Postgres as (Postgres refuses root); install the postgresql package or run as another user`,
		);
	}
	return {
		name: POSTGRES_USER,
		uid: Number(uidResult.stdout.trim()),
		gid: Number(id('-g').stdout.trim()),
		wrap: (program, args) => ['runuser', ['-u', POSTGRES_USER, '--', program, ...args]],
	};
}

/**
 * A running throw-away Postgres.
 */
export class PostgresServer {
	/**
	 * @param {{ binDir: string, n8nDir: string, name?: string }} options
	 *   `binDir`: the server programs; `n8nDir`: n8n's npm prefix (its `pg` client is used for queries)
	 */
	constructor(options) {
		this.binDir = options.binDir;
		this.n8nDir = options.n8nDir;
		this.folder = mkdtempSync(join(tmpdir(), `toolbridge-e2e-pg-${options.name ?? 'db'}-`));
		this.dataDir = join(this.folder, 'data');
		this.logPath = join(this.folder, 'postgres.log');
		this.port = 0;
		/** @type {import('node:child_process').ChildProcess | undefined} */
		this.server = undefined;
		this.account = serverAccount();
		this.killOnExit = () => killGroup(this.server);
	}

	/**
	 * initdb, start on a free port, wait until it accepts connections.
	 * @returns {Promise<void>}
	 * @throws {Error} with the server log tail when it does not come up
	 */
	async start() {
		const { uid, gid, wrap } = this.account;
		mkdirSync(this.dataDir, { recursive: true });
		chownSync(this.folder, uid, gid);
		chownSync(this.dataDir, uid, gid);
		const initLog = join(this.folder, 'initdb.log');
		const [initProgram, initArgs] = wrap(join(this.binDir, 'initdb'), [
			'-D',
			this.dataDir,
			'-U',
			POSTGRES_USER,
			'-A',
			'trust',
			'-E',
			'UTF8',
			'--locale=C',
			'--no-sync',
		]);
		await runChecked(initProgram, initArgs, {
			cwd: this.folder,
			logPath: initLog,
			timeoutMs: 120_000,
		});
		this.port = await freePort();
		const [program, args] = wrap(join(this.binDir, 'postgres'), [
			'-D',
			this.dataDir,
			'-p',
			String(this.port),
			'-k',
			this.dataDir,
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		]);
		const { child, exited } = spawnService(program, args, {
			cwd: this.folder,
			logPath: this.logPath,
			killOnExit: this.killOnExit,
		});
		this.server = child;
		const deadline = Date.now() + 60_000;
		for (;;) {
			if (exited())
				throw new Error(
					`postgres ${exited()} (log ${this.logPath}):\n${tailFile(this.logPath, 30)}`,
				);
			const ready = spawnSync(
				join(this.binDir, 'pg_isready'),
				['-h', '127.0.0.1', '-p', String(this.port), '-U', POSTGRES_USER],
				{ encoding: 'utf8' },
			);
			if (ready.status === 0) break;
			if (Date.now() > deadline)
				throw new Error(
					`postgres not ready after 60 s (log ${this.logPath}):\n${tailFile(this.logPath, 30)}`,
				);
			await sleep(200);
		}
	}

	/**
	 * Run one SQL statement on `database` with n8n's own `pg` client.
	 * @param {string} sql
	 * @param {unknown[]} [params]
	 * @param {string} [database]
	 * @returns {Promise<any[]>} the rows
	 */
	async query(sql, params = [], database = 'postgres') {
		const pg = createRequire(join(this.n8nDir, 'node_modules', 'n8n', 'package.json'))('pg');
		const client = new pg.Client({
			host: '127.0.0.1',
			port: this.port,
			user: POSTGRES_USER,
			database,
		});
		await client.connect();
		try {
			return (await client.query(sql, params)).rows;
		} finally {
			await client.end();
		}
	}

	/**
	 * Create an empty database.
	 * @param {string} name [a-z0-9_]
	 * @returns {Promise<void>}
	 */
	async createDatabase(name) {
		if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`database name '${name}'`);
		await this.query(`CREATE DATABASE ${name}`);
	}

	/**
	 * Fast shutdown (`pg_ctl stop -m fast`), then make sure nothing of the group is left, and
	 * delete the data dir unless `keep`.
	 * @param {boolean} [keep]
	 * @returns {Promise<string | undefined>} the folder when kept
	 */
	async stop(keep = false) {
		await stopChild(this.server, {
			ask: () => {
				const [program, args] = this.account.wrap(join(this.binDir, 'pg_ctl'), [
					'-D',
					this.dataDir,
					'stop',
					'-m',
					'fast',
					'-w',
					'-t',
					'20',
				]);
				spawnSync(program, args, { stdio: 'ignore', timeout: 30_000 });
			},
			force: this.killOnExit,
			graceMs: 10_000,
		});
		this.killOnExit();
		process.removeListener('exit', this.killOnExit);
		this.server = undefined;
		if (keep) return this.folder;
		rmSync(this.folder, { recursive: true, force: true });
		return undefined;
	}
}
