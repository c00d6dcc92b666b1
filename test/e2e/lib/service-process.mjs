// @ts-check
/**
 * A long-running server process of a test (n8n, Postgres, Redis): started in its own process
 * group with its output appended to a log file, stopped politely and then by force.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

/**
 * Start `program` detached (its own process group), stdout and stderr appended to `logPath`,
 * and register `killOnExit` to run once when this process exits.
 * @param {string} program
 * @param {string[]} args
 * @param {{ cwd: string, logPath: string, env?: NodeJS.ProcessEnv, header?: string, killOnExit: () => void }} options
 *   `header`: written to the log before the process starts; `killOnExit` is first removed, so a
 *   restart does not register it twice
 * @returns {{ child: import('node:child_process').ChildProcess, exited: () => string | undefined }}
 *   `exited()`: `exited <code or signal>` once the process is gone
 */
export function spawnService(program, args, options) {
	const log = createWriteStream(options.logPath, { flags: 'a' });
	if (options.header !== undefined) log.write(options.header);
	const child = spawn(program, args, {
		env: options.env,
		cwd: options.cwd,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	process.removeListener('exit', options.killOnExit);
	process.once('exit', options.killOnExit);
	child.stdout?.pipe(log);
	child.stderr?.pipe(log);
	/** @type {string | undefined} */
	let exited;
	child.on('exit', (code, signal) => {
		exited = `exited ${code ?? signal}`;
	});
	return { child, exited: () => exited };
}

/**
 * Whether the process has not exited yet.
 * @param {import('node:child_process').ChildProcess | undefined} child
 * @returns {child is import('node:child_process').ChildProcess}
 */
export function isRunning(child) {
	return Boolean(child && child.exitCode === null && child.signalCode === null);
}

/**
 * Signal the process group a detached child leads (the child and everything it started); quiet
 * when it is gone.
 * @param {import('node:child_process').ChildProcess | undefined} child
 * @param {NodeJS.Signals} [signal]
 */
export function killGroup(child, signal = 'SIGKILL') {
	try {
		if (child?.pid) process.kill(-child.pid, signal);
	} catch {
		// gone
	}
}

/**
 * Ask a running child to stop, `force` it after `graceMs`, and wait until it has exited;
 * nothing when it is not running.
 * @param {import('node:child_process').ChildProcess | undefined} child
 * @param {{ ask: () => void, force: () => void, graceMs: number }} how
 * @returns {Promise<void>}
 */
export async function stopChild(child, how) {
	if (!isRunning(child)) return;
	const gone = new Promise((resolve) => child.once('exit', resolve));
	how.ask();
	const timer = setTimeout(how.force, how.graceMs);
	await gone;
	clearTimeout(timer);
}
