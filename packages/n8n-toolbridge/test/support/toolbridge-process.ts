/**
 * Runs the real `toolbridge` CLI (its TypeScript entry through tsx, against the root
 * package's sources) as a child process with a throw-away HOME, from the repository root so
 * fixture paths are as in the README.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '../../../..');

/** The command and arguments that start `toolbridge <args>`. */
export function toolbridgeCommand(args: string[]): {
	command: string;
	args: string[];
	cwd: string;
	env: Record<string, string>;
} {
	return {
		command: process.execPath,
		args: ['--import', 'tsx', 'packages/n8n-toolbridge/src/cli/main.ts', ...args],
		cwd: repoRoot,
		env: {
			PATH: process.env.PATH ?? '',
			HOME: mkdtempSync(join(tmpdir(), 'toolbridge-home-')),
			TSX_TSCONFIG_PATH: 'packages/n8n-toolbridge/tsconfig.json',
		},
	};
}

/** A running `toolbridge mcp --http` or `toolbridge serve`. */
export interface ToolbridgeServer {
	/** `http://127.0.0.1:<port>` */
	url: string;
	child: ChildProcessWithoutNullStreams;
	/** Everything written to stderr so far. */
	stderr(): string;
	/** SIGTERM, then the exit code. */
	stop(): Promise<number | null>;
}

/**
 * Starts a server command and resolves once it logs where it listens ("… at http://…").
 * @throws when the process exits first (with its stderr) or does not listen within `timeoutMs`.
 */
export function startToolbridgeServer(
	args: string[],
	env: Record<string, string> = {},
	timeoutMs = 60_000,
): Promise<ToolbridgeServer> {
	const spec = toolbridgeCommand(args);
	const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: { ...spec.env, ...env } });
	let stderr = '';
	const exited = new Promise<number | null>((resolveExit) =>
		child.once('exit', (code) => resolveExit(code)),
	);
	return new Promise((resolveStart, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`toolbridge did not start within ${timeoutMs} ms:\n${stderr}`));
		}, timeoutMs);
		child.stderr.on('data', (data: Buffer) => {
			stderr += data.toString('utf8');
			const match = / at (http:\/\/[^\s/]+)/.exec(stderr);
			if (!match) return;
			clearTimeout(timer);
			resolveStart({
				url: match[1],
				child,
				stderr: () => stderr,
				stop: async () => {
					child.kill('SIGTERM');
					return exited;
				},
			});
		});
		void exited.then((code) => {
			clearTimeout(timer);
			reject(new Error(`toolbridge exited with ${code} before listening:\n${stderr}`));
		});
	});
}

/** Runs a command to its end (for commands that must refuse to start). */
export function runToolbridge(
	args: string[],
	env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
	const spec = toolbridgeCommand(args);
	const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: { ...spec.env, ...env } });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
	child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
	return new Promise((resolveRun) =>
		child.once('exit', (status) => resolveRun({ status, stdout, stderr })),
	);
}
