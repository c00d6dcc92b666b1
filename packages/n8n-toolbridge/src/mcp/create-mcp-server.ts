import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
	CallToolRequestSchema,
	ListToolsRequestSchema,
	type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { PACKAGE_VERSION } from '../package-version';
import type { McpTool } from './mcp-tool';
import { toolCallResult, type ToolCallResult } from './tool-call-result';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
	tools: McpTool[];
	/** Shown to the client as the server's name. Default `toolbridge`. */
	name?: string;
	/** Instructions for the client's model (e.g. what the workflow's tools are for). */
	instructions?: string;
	/** How often a running call reports progress when the client asked for it (ms). Default 1000. */
	progressIntervalMs?: number;
	/** Receives one line per call (stderr in the CLI; never the protocol stream). */
	log?: (line: string) => void;
}

/**
 * An MCP server (the official SDK's `Server`) offering workflow tools: `tools/list` gives
 * each tool's JSON Schema from the `$fromAI` compiler as `inputSchema`; `tools/call` runs the
 * tool — the real n8n node — and answers with the observation the model would read (text,
 * plus `structuredContent` when it is JSON). Unknown tools, bad arguments and node failures
 * are `isError: true` results, never protocol errors. `notifications/cancelled` aborts the
 * run; a client that sends a `progressToken` gets `notifications/progress` while it lasts.
 * Connect it to a transport (stdio, Streamable HTTP) with `server.connect(transport)`.
 */
export function createMcpServer(options: McpServerOptions): Server {
	const server = new Server(
		{ name: options.name ?? 'toolbridge', version: PACKAGE_VERSION },
		{ capabilities: { tools: { listChanged: false } }, instructions: options.instructions },
	);
	const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
	const log = options.log ?? (() => {});

	server.setRequestHandler(ListToolsRequestSchema, () => ({
		tools: options.tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			inputSchema: tool.inputSchema as { type: 'object' },
		})),
	}));

	server.setRequestHandler(
		CallToolRequestSchema,
		async (request, extra): Promise<ToolCallResult> => {
			const { name, arguments: args = {} } = request.params;
			const tool = byName.get(name);
			if (!tool) {
				const available = [...byName.keys()].join(', ') || 'none';
				return {
					content: [
						{ type: 'text', text: `Error: no tool "${name}". Available tools: ${available}.` },
					],
					isError: true,
				};
			}
			const progressToken = request.params._meta?.progressToken;
			let progress = 0;
			const report = (message: string): void => {
				if (progressToken === undefined || extra.signal.aborted) return;
				progress += 1;
				const notification: ServerNotification = {
					method: 'notifications/progress',
					params: { progressToken, progress, message },
				};
				extra.sendNotification(notification).catch(() => {
					// The client went away; the call itself ends through its signal.
				});
			};
			const started = Date.now();
			report(`${name}: started`);
			const interval = options.progressIntervalMs ?? 1000;
			const timer =
				progressToken === undefined
					? undefined
					: setInterval(
							() => report(`${name}: running for ${Math.round((Date.now() - started) / 1000)} s`),
							interval,
						);
			timer?.unref();
			try {
				const observation = await tool.call(args, { signal: extra.signal, progress: report });
				const outcome = extra.signal.aborted ? 'cancelled' : observation.isError ? 'error' : 'ok';
				log(`tools/call ${name} → ${outcome} [${Date.now() - started} ms]`);
				return toolCallResult(observation);
			} catch (error) {
				// McpTool.call does not throw; a bug still becomes a result, not a protocol error.
				log(`tools/call ${name} → failed: ${(error as Error).message}`);
				return {
					content: [{ type: 'text', text: `Error: ${(error as Error).message}` }],
					isError: true,
				};
			} finally {
				if (timer) clearInterval(timer);
			}
		},
	);
	return server;
}
