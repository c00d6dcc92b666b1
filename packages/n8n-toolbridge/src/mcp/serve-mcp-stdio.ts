import { deserializeMessage } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { McpServerFactory } from './create-mcp-server';
import type { McpServerDescription } from './mcp-description';
import {
	startedStdioEarlyReader,
	startStdioEarlyReader,
	type StdioStreams,
} from './stdio-early-reader';

/** Options of {@link serveMcpStdio}. */
export interface McpStdioOptions {
	factory: McpServerFactory;
	/** What the opening answer says (must match what `factory`'s servers say). */
	description: McpServerDescription;
	/** Default process.stdin / process.stdout. */
	streams?: StdioStreams;
	/** Out-of-band protocol errors (stderr in the CLI). */
	log?: (line: string) => void;
}

/**
 * Serves MCP over stdio, both protocol generations (the opening message picks one for the
 * connection: `server/discover` 2026-07-28, `initialize` 2025): stdin/stdout are the
 * protocol (nothing else may write to stdout), logs go to stderr. The connection is read
 * from the start by the early reader (the one the CLI started before loading anything, else
 * a new one), so an opening that arrived before the SDK loaded is already answered and
 * replayed. `closed` resolves when the client closes stdin; `close()` ends the connection.
 */
export function serveMcpStdio(options: McpStdioOptions): {
	closed: Promise<void>;
	close(): Promise<void>;
} {
	const reader =
		(options.streams ? undefined : startedStdioEarlyReader()) ??
		startStdioEarlyReader(options.description, options.streams);
	const handle = serveStdio((context) => options.factory(context), {
		transport: reader.transport(deserializeMessage) as never,
		onerror: (error) => options.log?.(`protocol: ${error.message}`),
	});
	const close = async (): Promise<void> => {
		reader.stop();
		await handle.close().catch(() => undefined);
	};
	return { closed: reader.closed.then(close), close };
}
