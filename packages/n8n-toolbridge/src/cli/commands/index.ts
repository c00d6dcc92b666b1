import type { CliCommand } from '../cli-command';
import { buildCommand } from './build';
import { callCommand } from './call';
import { mcpCommand } from './mcp';
import { runCommand } from './run';
import { serveCommand } from './serve';
import { toolsCommand } from './tools';

/** Every `toolbridge` command, in help order. Add a command by listing it here. */
export const commands: CliCommand[] = [
	toolsCommand,
	callCommand,
	runCommand,
	mcpCommand,
	serveCommand,
	buildCommand,
];
