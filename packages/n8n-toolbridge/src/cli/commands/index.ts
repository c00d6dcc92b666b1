import type { CliCommand } from '../cli-command';
import { callCommand } from './call';
import { runCommand } from './run';
import { toolsCommand } from './tools';

/** Every `toolbridge` command, in help order. Add a command by listing it here. */
export const commands: CliCommand[] = [toolsCommand, callCommand, runCommand];
