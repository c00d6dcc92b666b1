/**
 * Throw-away Postgres and Redis servers for tests of the nodes that use them: each on a free
 * loopback port in a temp dir, no durability, deleted by `stop()`. `start…()` gives undefined
 * with the reason when the programs are not installed (the test skips, saying why). Postgres
 * refuses root: as root it runs as the `postgres` account (through `runuser`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { delimiter, join } from 'node:path';
import { tmpdir } from 'node:os';

/** A running server: its port, and how to stop it. */
export interface ThrowawayServer {
	port: number;
	stop(): Promise<void>;
}

/** Why a server could not start (the programs are missing), or the server. */
export type Started = { server: ThrowawayServer } | { skip: string };

function which(name: string): string | undefined {
	for (const dir of (process.env.PATH ?? '').split(delimiter)) {
		if (dir && existsSync(join(dir, name))) return join(dir, name);
	}
	return undefined;
}

function postgresBinDir(): string | undefined {
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

async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

async function waitFor(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (!(await ready())) {
		if (Date.now() > deadline) throw new Error(`${what} did not come up within 60 s`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

function stopper(child: ChildProcess, folder: string): () => Promise<void> {
	return async () => {
		if (child.exitCode === null && child.signalCode === null) {
			const gone = new Promise((resolve) => child.once('exit', resolve));
			try {
				process.kill(-child.pid!, 'SIGTERM');
			} catch {
				// gone
			}
			const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
			await gone;
			clearTimeout(timer);
		}
		rmSync(folder, { recursive: true, force: true });
	};
}

/** A Postgres with trust auth for user `postgres`, database `postgres`, on 127.0.0.1. */
export async function startPostgres(): Promise<Started> {
	const binDir = postgresBinDir();
	if (!binDir) return { skip: 'Postgres is not installed (no initdb/postgres programs)' };
	const root = process.getuid?.() === 0;
	let account: { uid: number; gid: number } | undefined;
	if (root) {
		const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
		if (id('-u').status !== 0)
			return { skip: "running as root and there is no 'postgres' account to run Postgres as" };
		account = { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
	}
	const wrap = (program: string, args: string[]): [string, string[]] =>
		root ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
	const folder = mkdtempSync(join(tmpdir(), 'toolbridge-test-pg-'));
	const dataDir = join(folder, 'data');
	if (account) chownSync(folder, account.uid, account.gid);
	const [init, initArgs] = wrap(join(binDir, 'initdb'), [
		...['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
	]);
	const initialized = spawnSync(init, initArgs, { encoding: 'utf8' });
	if (initialized.status !== 0) throw new Error(`initdb failed: ${initialized.stderr}`);
	const port = await freePort();
	const [program, args] = wrap(join(binDir, 'postgres'), [
		...['-D', dataDir, '-p', String(port), '-k', dataDir],
		...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
	]);
	const child = spawn(program, args, { detached: true, stdio: 'ignore' });
	await waitFor(
		() =>
			spawnSync(join(binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]).status === 0,
		'postgres',
	);
	return { server: { port, stop: stopper(child, folder) } };
}

/** A Redis without persistence on 127.0.0.1. */
export async function startRedis(): Promise<Started> {
	const binary =
		which('redis-server') ??
		(existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined);
	if (!binary) return { skip: 'redis-server is not installed' };
	const folder = mkdtempSync(join(tmpdir(), 'toolbridge-test-redis-'));
	const port = await freePort();
	const child = spawn(
		binary,
		[
			...['--port', String(port), '--bind', '127.0.0.1', '--dir', folder],
			...['--save', '', '--appendonly', 'no', '--daemonize', 'no'],
		],
		{ detached: true, stdio: 'ignore' },
	);
	await waitFor(() => ping(port), 'redis-server');
	return { server: { port, stop: stopper(child, folder) } };
}

async function ping(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = createConnection({ host: '127.0.0.1', port });
		socket.setTimeout(1000, () => socket.destroy());
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (data) => {
			socket.end();
			resolve(data.toString().startsWith('+PONG'));
		});
		socket.on('error', () => resolve(false));
		socket.on('close', () => resolve(false));
	});
}
