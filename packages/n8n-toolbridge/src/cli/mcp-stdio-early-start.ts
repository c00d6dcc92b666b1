import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { workflowServerDescription } from '../mcp/mcp-description';
import { startStdioEarlyReader, type StdioEarlyReader } from '../mcp/stdio-early-reader';
import { mcpOptions } from './option-specs';

/**
 * For `toolbridge mcp <workflow>` over stdio: starts reading the protocol before the CLI loads
 * its commands (n8n's libraries take a second or more), so the client's opening is answered
 * at once (see `startStdioEarlyReader`). Reads only the flags and the workflow's name, with
 * node built-ins; the protocol goes to `stdout` (the CLI's reserved stdout). Anything it cannot read (help, `--http`, a bad file) leaves the command to
 * start as usual and say what is wrong. Returns the reader, or undefined.
 */
export function startMcpStdioEarly(
	argv: readonly string[],
	stdout: NodeJS.WritableStream = process.stdout,
): StdioEarlyReader | undefined {
	if (argv[0] !== 'mcp') return undefined;
	let parsed: ReturnType<typeof parseArgs<{ options: typeof mcpOptions; allowPositionals: true }>>;
	try {
		parsed = parseArgs({
			args: argv.slice(1),
			options: { ...mcpOptions, help: { type: 'boolean', short: 'h' }, debug: { type: 'boolean' } },
			allowPositionals: true,
			strict: true,
		}) as typeof parsed;
	} catch {
		return undefined;
	}
	const { values, positionals } = parsed;
	if ((values as { help?: boolean }).help || values.http !== undefined || positionals.length !== 1)
		return undefined;
	const workflowName = readWorkflowName(positionals[0]);
	if (workflowName === null) return undefined;
	return startStdioEarlyReader(workflowServerDescription(workflowName, values.agent), {
		stdin: process.stdin,
		stdout,
	});
}

/** The workflow's `name` (undefined when it has none), or null when the input is not readable JSON. */
function readWorkflowName(input: string): string | undefined | null {
	try {
		const text = input.trimStart().startsWith('{') ? input : readFileSync(input, 'utf8');
		const workflow = JSON.parse(text) as { name?: unknown };
		if (typeof workflow !== 'object' || workflow === null) return null;
		return typeof workflow.name === 'string' ? workflow.name : undefined;
	} catch {
		return null;
	}
}
