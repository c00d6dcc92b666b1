import type { ParseArgsConfig } from 'node:util';

/** Where a command writes; injected so tests can capture output. */
export interface CliIo {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	env: NodeJS.ProcessEnv;
	/** The real stdout as a stream, for a protocol on stdout (MCP over stdio); default process.stdout. */
	stdoutStream?: NodeJS.WritableStream;
}

/** Parsed command line of one command. */
export interface CliInvocation {
	positionals: string[];
	values: Record<string, string | boolean | string[] | undefined>;
	io: CliIo;
}

/** One `toolbridge <command>`: its options (node:util parseArgs), help and handler. */
export interface CliCommand {
	name: string;
	/** One line for the command list. */
	summary: string;
	/** The full help text, usage line first. */
	help: string;
	options: NonNullable<ParseArgsConfig['options']>;
	/** Resolves with the exit code (0 ok, 1 runtime error, 2 usage or `$fromAI` problems). */
	run(invocation: CliInvocation): Promise<number>;
}

/** Exit codes of the `toolbridge` command. */
export const EXIT = { ok: 0, runtimeError: 1, usage: 2 } as const;
