// @ts-check
/**
 * Spawn helpers: run a command to completion with its output captured to a log file,
 * and surface the log tail on failure.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';

/**
 * @typedef {object} CommandResult
 * @property {number | null} code exit code (null when killed)
 * @property {string | null} signal signal that ended the process
 * @property {string} stdout captured standard output
 * @property {string} stderr captured standard error
 */

/**
 * Last `lines` lines of a text file ('' when unreadable).
 * @param {string} path
 * @param {number} [lines]
 * @returns {string}
 */
export function tailFile(path, lines = 60) {
	try {
		return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/**
 * Run a command in its own process group; stdout and stderr are captured and also
 * appended to `logPath`. On timeout the whole group is killed.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, logPath?: string, timeoutMs?: number, input?: string }} [options]
 * @returns {Promise<CommandResult>}
 */
export function runCommand(command, args, options = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			detached: true,
			stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
		});
		const log = options.logPath ? createWriteStream(options.logPath, { flags: 'a' }) : undefined;
		log?.write(`$ ${command} ${args.join(' ')}\n`);
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk) => {
			stdout += chunk;
			log?.write(chunk);
		});
		child.stderr?.on('data', (chunk) => {
			stderr += chunk;
			log?.write(chunk);
		});
		if (options.input !== undefined) child.stdin?.end(options.input);
		const killGroup = () => {
			try {
				if (child.pid) process.kill(-child.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		};
		process.once('exit', killGroup);
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						log?.write(`\n[timeout after ${options.timeoutMs} ms: killing process group]\n`);
						killGroup();
					}, options.timeoutMs);
		child.on('error', (error) => {
			if (timer) clearTimeout(timer);
			process.removeListener('exit', killGroup);
			log?.end();
			reject(error);
		});
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			process.removeListener('exit', killGroup);
			log?.end(`\n[exit ${code ?? signal}]\n`);
			resolve({ code, signal, stdout, stderr });
		});
	});
}

/**
 * Like {@link runCommand} but throws when the command does not exit 0.
 * @param {string} command
 * @param {string[]} args
 * @param {Parameters<typeof runCommand>[2]} [options]
 * @returns {Promise<CommandResult>}
 * @throws {Error} with the tail of the output when the exit code is not 0
 */
export async function runChecked(command, args, options = {}) {
	const result = await runCommand(command, args, options);
	if (result.code !== 0) {
		const tail = (result.stdout + result.stderr).split('\n').slice(-40).join('\n');
		throw new Error(
			`${command} ${args.join(' ')} exited ${result.code ?? result.signal}` +
				(options.logPath ? ` (log: ${options.logPath})` : '') +
				`\n${tail}`,
		);
	}
	return result;
}
