#!/usr/bin/env node
import { startMcpStdioEarly } from './mcp-stdio-early-start';

/** Entry point of the `toolbridge` bin (package.json → bin/toolbridge.js → dist/cli/main.js). */
async function main(argv: string[]): Promise<void> {
	// `toolbridge mcp` over stdio answers its client's opening before the commands (and n8n) load.
	const early = startMcpStdioEarly(argv);
	if (early) await early.firstLine(250);
	const { commands } = await import('./commands');
	const { runCli } = await import('./run-cli');
	process.exitCode = await runCli(argv, commands, {
		stdout: (text) => process.stdout.write(text),
		stderr: (text) => process.stderr.write(text),
		env: process.env,
	});
}

void main(process.argv.slice(2));
