import { createRequire } from 'node:module';

/** Every level winston knows (npm's) and n8n's: all of them go to stderr. */
const allLevels = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'];

interface ConsoleTransportLike {
	stderrLevels?: Record<string, boolean>;
}

let routed = false;

/**
 * Sends n8n's logger (n8n-core's `Logger` from `@n8n/backend-common`, which nodes reach as
 * `this.logger` and n8n-workflow's `LoggerProxy` once it exists) to stderr at every level. Its
 * winston console transport writes info and debug to stdout by default, where the standalone
 * host's callers promise JSON, a tool's result or MCP's JSON-RPC (n8n's MCP Client Tool logs
 * "MCP client: Failed to connect to MCP Server" at error level there, too). The level and
 * format stay n8n's (`N8N_LOG_LEVEL`, `N8N_LOG_OUTPUT`). Once per process.
 */
export function routeN8nLogsToStderr(): void {
	if (routed) return;
	routed = true;
	const requireFromCore = createRequire(require.resolve('n8n-core'));
	const { Container } = requireFromCore('@n8n/di') as { Container: { get<T>(token: unknown): T } };
	const { Logger } = requireFromCore('@n8n/backend-common') as { Logger: unknown };
	// `internalLogger` is private in the typings; it is the winston logger the class writes through.
	const logger = Container.get<{ internalLogger?: { transports?: ConsoleTransportLike[] } }>(
		Logger,
	);
	for (const transport of logger.internalLogger?.transports ?? []) {
		if ('stderrLevels' in transport)
			transport.stderrLevels = Object.fromEntries(allLevels.map((level) => [level, true]));
	}
}
