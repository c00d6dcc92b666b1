import {
	Server,
	type LoggingLevel,
	type McpRequestContext,
	type ServerContext,
	type Tool,
} from '@modelcontextprotocol/server';
import { withNodeLogListener } from 'n8n-nodes-toolbridge';
import { callLogForwarder } from './call-log-forwarder';
import { PACKAGE_VERSION } from '../package-version';
import { listedTool } from './listed-tool';
import { MCP_CACHE_HINTS, MCP_SERVER_CAPABILITIES } from './mcp-description';
import type { McpTool } from './mcp-tool';
import { reviewStep } from './mcp-tool-review';
import { toolCallResult, type ToolCallResult } from './tool-call-result';

/** Options of {@link mcpServerFactory} and {@link createMcpServer}. */
export interface McpServerOptions {
	/**
	 * The tools, or a promise of them: the protocol's opening (`server/discover`,
	 * `initialize`, `ping`) is answered at once, `tools/list` and `tools/call` wait for it.
	 */
	tools: McpTool[] | Promise<McpTool[]>;
	/** Shown to the client as the server's name. Default `toolbridge`. */
	name?: string;
	/** Instructions for the client's model (e.g. what the workflow's tools are for). */
	instructions?: string;
	/** How often a running call reports progress when the client asked for it (ms). Default 1000. */
	progressIntervalMs?: number;
	/** Receives one line per call (stderr in the CLI; never the protocol stream). */
	log?: (line: string) => void;
	/**
	 * Removes the secrets of the tools' session from a log line (`session.redactor.text`).
	 * Given, the log lines a call's nodes write (a Code node's `console.log` …) go to the
	 * calling client as `notifications/message`; absent, no node line leaves the server.
	 */
	redactLogLine?: (text: string) => string;
}

/** Builds one MCP server instance for a request (HTTP) or a connection (stdio). */
export type McpServerFactory = (context?: McpRequestContext) => Server;

/**
 * The factory of MCP servers (the official SDK v2's low-level `Server`) offering workflow
 * tools, for `createMcpHandler` (Streamable HTTP, one instance per request) and `serveStdio`
 * (one per connection), both protocol generations from one definition: `tools/list` gives
 * each tool's JSON Schema (as JSON Schema 2020-12 to 2026-07-28 clients), title and
 * annotations, with cache hints for 2026 clients; `tools/call` runs the tool — the real n8n
 * node — and answers with the observation the model would read as text, plus
 * `structuredContent` when it is JSON. Unknown tools, bad arguments and node failures are
 * `isError: true` results, never protocol errors. Cancellation (`notifications/cancelled`,
 * or a 2026 client dropping its request) aborts the run; a client that sends a
 * `progressToken` gets `notifications/progress` while it lasts, and — with `redactLogLine` —
 * the log lines its nodes write (`logging/setLevel` sets the level). A tool behind a review gate
 * asks the client's user first (see `reviewStep`). Nothing is kept between requests.
 */
export function mcpServerFactory(options: McpServerOptions): McpServerFactory {
	const toolsReady = Promise.resolve(options.tools);
	// A rejected load is reported by whoever loads; the protocol answers it per request.
	toolsReady.catch(() => undefined);
	const byName = toolsReady.then((tools) => new Map(tools.map((tool) => [tool.name, tool])));
	byName.catch(() => undefined);
	const lists = new Map<'legacy' | 'modern', Promise<Tool[]>>();
	const listFor = (era: 'legacy' | 'modern'): Promise<Tool[]> => {
		let list = lists.get(era);
		if (!list) {
			list = toolsReady.then((tools) => tools.map((tool) => listedTool(tool, era) as Tool));
			lists.set(era, list);
		}
		return list;
	};
	const log = options.log ?? (() => {});
	const interval = options.progressIntervalMs ?? 1000;

	return (context) => {
		const era = context?.era ?? 'legacy';
		const server = new Server(
			{ name: options.name ?? 'toolbridge', version: PACKAGE_VERSION },
			{
				capabilities: MCP_SERVER_CAPABILITIES,
				instructions: options.instructions,
				cacheHints: MCP_CACHE_HINTS,
			},
		);
		// The level a 2025 client sets for this connection (stdio; over stateless HTTP each
		// request is its own connection, so a later call gets the default). Kept here rather
		// than in the SDK's own handler, whose level this module cannot read.
		let logLevel: LoggingLevel | undefined;
		server.setRequestHandler('logging/setLevel', async (request) => {
			logLevel = request.params.level;
			return {};
		});
		server.setRequestHandler('tools/list', async () => ({ tools: await listFor(era) }));
		server.setRequestHandler('tools/call', async (request, serverContext) => {
			const { name, arguments: args = {} } = request.params;
			const tool = (await byName).get(name);
			if (!tool) {
				const available = [...(await byName).keys()].join(', ') || 'none';
				return errorResult(`Error: no tool "${name}". Available tools: ${available}.`);
			}
			let reviewed: true | undefined;
			if (tool.review) {
				const step = reviewStep({ ...tool, review: tool.review }, args, serverContext, server, era);
				if (!step.approved) {
					log(`tools/call ${name} → ${step.result.isError ? 'not reviewed' : 'asks for approval'}`);
					return step.result;
				}
				reviewed = true;
			}
			const redact = options.redactLogLine;
			const logs = redact
				? callLogForwarder({ context: serverContext, era, level: logLevel, redact })
				: undefined;
			const call = () => callTool(tool, args, serverContext, { reviewed, interval, log });
			if (!logs) return call();
			try {
				return await withNodeLogListener(logs.forward, call);
			} finally {
				logs.finish();
			}
		});
		return server;
	};
}

/**
 * One MCP server instance with the workflow tools (see {@link mcpServerFactory}), for a caller
 * that connects it to a transport itself (`server.connect(transport)`); `context.era` picks
 * the protocol generation it serves (default 2025's handshake).
 */
export function createMcpServer(
	options: McpServerOptions,
	context: McpRequestContext = { era: 'legacy' },
): Server {
	return mcpServerFactory(options)(context);
}

async function callTool(
	tool: McpTool,
	args: Record<string, unknown>,
	context: ServerContext,
	options: { reviewed?: true; interval: number; log: (line: string) => void },
): Promise<ToolCallResult> {
	const { signal } = context.mcpReq;
	const progressToken = context.mcpReq._meta?.progressToken;
	let progress = 0;
	const report = (message: string): void => {
		if (progressToken === undefined || signal.aborted) return;
		progress += 1;
		context.mcpReq
			.notify({ method: 'notifications/progress', params: { progressToken, progress, message } })
			.catch(() => {
				// The client went away; the call itself ends through its signal.
			});
	};
	const started = Date.now();
	report(`${tool.name}: started`);
	const timer =
		progressToken === undefined
			? undefined
			: setInterval(
					() => report(`${tool.name}: running for ${Math.round((Date.now() - started) / 1000)} s`),
					options.interval,
				);
	timer?.unref();
	try {
		const observation = await tool.call(args, {
			signal,
			progress: report,
			reviewed: options.reviewed,
		});
		const outcome = signal.aborted ? 'cancelled' : observation.isError ? 'error' : 'ok';
		options.log(`tools/call ${tool.name} → ${outcome} [${Date.now() - started} ms]`);
		return toolCallResult(observation);
	} catch (error) {
		// McpTool.call does not throw; a bug still becomes a result, not a protocol error.
		options.log(`tools/call ${tool.name} → failed: ${(error as Error).message}`);
		return errorResult(`Error: ${(error as Error).message}`);
	} finally {
		if (timer) clearInterval(timer);
	}
}

function errorResult(text: string): ToolCallResult {
	return { content: [{ type: 'text', text }], isError: true };
}
