#!/usr/bin/env node
import { commands } from './commands';
import { runCli } from './run-cli';

/** Entry point of the `toolbridge` bin (package.json → bin/toolbridge.js → dist/cli/main.js). */
void runCli(process.argv.slice(2), commands, {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	env: process.env,
}).then((code) => {
	process.exitCode = code;
	// The command is done. Some node libraries keep the process alive after they are closed (n8n's
	// Postgres pool manager holds an interval for the life of the process): once the output is
	// written, exit unless the process ended by itself first.
	setTimeout(() => {
		process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
	}, 100).unref();
});
