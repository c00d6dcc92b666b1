import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Serves MCP over stdio: stdin/stdout are the protocol (nothing else may write to stdout),
 * logs go to stderr. Resolves when the client closes the connection (stdin ends).
 */
export async function serveMcpStdio(
	server: Server,
	streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<void> {
	const transport = new StdioServerTransport(streams.stdin as never, streams.stdout as never);
	const closed = new Promise<void>((resolve) => {
		server.onclose = () => resolve();
	});
	(streams.stdin ?? process.stdin).once('end', () => void server.close());
	await server.connect(transport);
	await closed;
}
