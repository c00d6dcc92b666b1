#!/usr/bin/env node
import { startMcpStdioEarly } from './mcp-stdio-early-start';

/** Entry point of the `toolbridge` bin (package.json → bin/toolbridge.js → dist/cli/main.js). */
async function main(argv: string[]): Promise<void> {
	// `toolbridge mcp` over stdio answers its client's opening before the commands (and n8n) load.
	const early = startMcpStdioEarly(argv);
	if (early) await early.firstLine(250);
	const { commands } = await import('./commands');
	const { runCli } = await import('./run-cli');
	const code = await runCli(argv, commands, {
		stdout: (text) => process.stdout.write(text),
		stderr: (text) => process.stderr.write(text),
		env: process.env,
	});
	process.exitCode = code;
	// The command is done. Some node libraries keep the process alive after they are closed (n8n's
	// Postgres pool manager holds an interval for the life of the process): once the output is
	// written, exit unless the process ended by itself first.
	setTimeout(() => {
		process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
	}, 100).unref();
}

void main(process.argv.slice(2));
