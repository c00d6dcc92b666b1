import type { ParseArgsConfig } from 'node:util';

// The flags commands share, as plain data: the CLI's entry reads `mcp`'s before anything heavy
// loads (see mcp-stdio-early-start.ts), so this module imports nothing.

/** Options every workflow command shares. */
export const workflowOptions = {
	agent: { type: 'string' },
	package: { type: 'string', multiple: true },
	credentials: { type: 'string' },
	workflows: { type: 'string' },
	'skip-unavailable': { type: 'boolean' },
	pin: { type: 'string', multiple: true },
	json: { type: 'boolean' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** Options of the commands that may call a model (`run`, and `call` of a nested agent). */
export const connectionOptions = {
	model: { type: 'string' },
	'base-url': { type: 'string' },
	'api-key': { type: 'string' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** What `run` gives the agent node besides the user's text: its input item (`--pin` is a workflow option). */
export const agentInputOptions = {
	input: { type: 'string' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** Where conversations live between turns (`run`, `serve`, `mcp`). */
export const storeOptions = {
	store: { type: 'string' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** Options `mcp --http` and `serve` share. */
export const serverOptions = {
	token: { type: 'string' },
	'allow-origin': { type: 'string', multiple: true },
	'max-concurrency': { type: 'string' },
	'allow-private-network': { type: 'boolean' },
} satisfies NonNullable<ParseArgsConfig['options']>;

/** Options of `toolbridge mcp`. */
export const mcpOptions = {
	...workflowOptions,
	...connectionOptions,
	...serverOptions,
	...storeOptions,
	http: { type: 'string' },
	'expose-agent': { type: 'boolean' },
	builder: { type: 'boolean' },
} satisfies NonNullable<ParseArgsConfig['options']>;
