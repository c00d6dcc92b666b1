import {
	OutputBoundary,
	defaultRunTimeLimits,
	withToolTimeout,
	type AgentTool,
	type JsonSchema,
	type ToolObservation,
} from 'n8n-nodes-toolbridge';

/** What a tool call may report while it runs. */
export interface McpToolCallContext {
	signal: AbortSignal;
	/** A progress note for the client (sent only when the client asked for progress). */
	progress: (message: string) => void;
}

/** A tool as the MCP server offers it. */
export interface McpTool {
	name: string;
	description: string;
	/** The JSON Schema of the arguments (`inputSchema`). */
	inputSchema: JsonSchema;
	/** Never throws for bad arguments or a failing run: answers with `isError`. */
	call(args: Record<string, unknown>, context: McpToolCallContext): Promise<ToolObservation>;
}

/**
 * A workflow tool (a node, or a nested agent) as an MCP tool: the compiler's schema, the real
 * node run; its result leaves through `boundary` (the session's secrets redacted, text capped;
 * default: no known secrets, the default cap). A call is stopped after `toolTimeoutMs` (default
 * the loop's 120 s; 0: none) with an `isError` result saying so, as an agent's tool call is;
 * the client's cancellation stops it at once.
 */
export function mcpToolFromAgentTool(
	tool: AgentTool,
	boundary = new OutputBoundary(),
	toolTimeoutMs: number = defaultRunTimeLimits.toolTimeoutMs,
): McpTool {
	const limited = withToolTimeout(tool, toolTimeoutMs);
	return {
		name: tool.name,
		description: tool.description,
		inputSchema: tool.parameters,
		call: async (args, { signal }) =>
			boundary.observation(await limited.invoke(args, { toolCallId: `mcp-${tool.name}`, signal })),
	};
}
