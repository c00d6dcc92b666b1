#!/usr/bin/env node
import { startMcpStdioEarly } from './mcp-stdio-early-start';
import { reserveStdout } from './reserved-stdout';

/** Entry point of the `toolbridge` bin (package.json → bin/toolbridge.js → dist/cli/main.js). */
async function main(argv: string[]): Promise<void> {
	// stdout carries only what the command promises; every other write (a node's or a library's log) goes to stderr.
	const stdout = reserveStdout();
	// `toolbridge mcp` over stdio answers its client's opening before the commands (and n8n) load.
	const early = startMcpStdioEarly(argv, stdout.stream);
	if (early) await early.firstLine(250);
	const { commands } = await import('./commands');
	const { runCli } = await import('./run-cli');
	const { onUncontainedError } = await import('n8n-nodes-toolbridge');
	onUncontainedError(uncontainedErrorExit(argv));
	const code = await runCli(argv, commands, {
		stdout: (text) => stdout.write(text),
		stderr: (text) => process.stderr.write(text),
		env: process.env,
		stdoutStream: stdout.stream,
	});
	process.exitCode = code;
	// The command is done. Some node libraries keep the process alive after they are closed (n8n's
	// Postgres pool manager holds an interval for the life of the process): once the output is
	// written, exit unless the process ended by itself first.
	setTimeout(() => {
		stdout.write('', () => process.stderr.write('', () => process.exit(code)));
	}, 100).unref();
}

/**
 * What a node throws outside its promise ends that tool call (the standalone host contains it);
 * an error that belongs to no node run ends the command as one line on stderr and exit 1, like
 * any other runtime error (the stack only with `--debug`), never Node's uncaught-error dump.
 */
function uncontainedErrorExit(argv: readonly string[]): (error: unknown) => void {
	return (error) => {
		const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
		const stack = argv.includes('--debug') && error instanceof Error ? `${error.stack}\n` : '';
		process.stderr.write(`toolbridge ${argv[0]}: ${message}\n${stack}`, () => process.exit(1));
	};
}

void main(process.argv.slice(2));
