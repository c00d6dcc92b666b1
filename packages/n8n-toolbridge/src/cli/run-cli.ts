import { parseArgs } from 'node:util';
import { AgentNotFoundError, ToolBuildError, ToolbridgeError } from 'n8n-nodes-toolbridge';
import { ServerConfigurationError } from '../errors/server-configuration-error';
import { startTraceExport } from '../telemetry/start-trace-export';
import { EXIT, type CliCommand, type CliIo } from './cli-command';
import { UsageError } from '../errors/usage-error';

function mainHelp(commands: readonly CliCommand[]): string {
	const width = Math.max(...commands.map((command) => command.name.length));
	return `toolbridge — run n8n nodes as LLM tools, without an n8n server

Usage: toolbridge <command> [options]

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Run "toolbridge <command> --help" for a command's options. Every command also takes:
  --otel-endpoint URL  export OpenTelemetry spans of agent runs, model calls and tool calls
                       to this OTLP/HTTP collector (e.g. http://localhost:4318; /v1/traces is
                       added); OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT also work
  --otel-content       put prompts, answers, tool arguments and results (redacted) in the
                       spans too (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)
Exit codes: 0 ok, 1 runtime error, 2 usage or $fromAI problems.
`;
}

/**
 * Problems with what the user gave (flags, the workflow file, its nodes and settings) exit 2;
 * what goes wrong while running (a model call, a tool) exits 1.
 */
const configurationCodes = new Set([
	'WORKFLOW_FILE_INVALID',
	'NODE_TYPE_NOT_FOUND',
	'NODE_UNSUPPORTED',
	'CREDENTIAL_MISSING',
	'AGENT_CONFIGURATION',
	'AGENT_NOT_FOUND',
	'AGENT_NESTING_CYCLE',
	'INVALID_ARGUMENT',
	'CREDENTIALS_INVALID',
	'TOOL_BUILD_FAILED',
	'TOOLS_UNAVAILABLE',
	'NODE_DESCRIPTIONS_UNAVAILABLE',
]);

function exitCodeFor(error: unknown): number {
	if (
		error instanceof UsageError ||
		error instanceof ToolBuildError ||
		error instanceof AgentNotFoundError ||
		error instanceof ServerConfigurationError
	)
		return EXIT.usage;
	const code = (error as { code?: unknown } | null)?.code;
	if (ToolbridgeError.isInstance(error) && configurationCodes.has(error.code)) return EXIT.usage;
	// parseArgs reports unknown or malformed flags with these codes.
	if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return EXIT.usage;
	return EXIT.runtimeError;
}

/** parseArgs' own errors (unknown or malformed flags) are usage errors, not TypeErrors to the user. */
function isParseArgsError(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/**
 * Runs the `toolbridge` command line (without the `node script` part) against a registry
 * of commands and resolves with the exit code. Errors are printed as one message; stack
 * traces only with `--debug`.
 */
export async function runCli(
	argv: readonly string[],
	commands: readonly CliCommand[],
	io: CliIo,
): Promise<number> {
	const [name, ...rest] = argv;
	if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
		io.stdout(mainHelp(commands));
		return name === undefined ? EXIT.usage : EXIT.ok;
	}
	const command = commands.find((candidate) => candidate.name === name);
	const debug = rest.includes('--debug');
	if (!command) {
		io.stderr(
			`Unknown command "${name}". Commands: ${commands.map((candidate) => candidate.name).join(', ')}. Run "toolbridge --help".\n`,
		);
		return EXIT.usage;
	}
	try {
		const { positionals, values } = parseArgs({
			args: [...rest],
			options: {
				...command.options,
				help: { type: 'boolean', short: 'h' },
				debug: { type: 'boolean' },
				'otel-endpoint': { type: 'string' },
				'otel-content': { type: 'boolean' },
			},
			allowPositionals: true,
			strict: true,
		});
		if (values.help) {
			io.stdout(`${command.help}\n`);
			return EXIT.ok;
		}
		if (values['otel-content']) io.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'true';
		const traces = await startTraceExport(values['otel-endpoint'] as string | undefined, io.env);
		try {
			return await command.run({
				positionals,
				values: values as Record<string, string | boolean | string[] | undefined>,
				io,
			});
		} finally {
			await traces?.shutdown();
		}
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const label =
			error instanceof UsageError ||
			!(error instanceof Error) ||
			isParseArgsError(error) ||
			ToolbridgeError.isInstance(error)
				? ''
				: `${error.name}: `;
		io.stderr(`toolbridge ${name}: ${label}${message}\n`);
		if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
		else if (error instanceof UsageError || isParseArgsError(error))
			io.stderr(`Run "toolbridge ${name} --help" for usage.\n`);
		return exitCodeFor(error);
	}
}
