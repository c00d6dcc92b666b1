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
});
