import type { AgentTool, JsonSchema, ToolObservation } from 'n8n-nodes-toolbridge';

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
 * A session's tool (`openWorkflowSession().tools`: already time-limited, its observations
 * through the session's boundary) as an MCP tool: the compiler's schema, the real node run.
 * The client's cancellation stops the call at once.
 */
export function mcpToolFromAgentTool(tool: AgentTool): McpTool {
	return {
		name: tool.name,
		description: tool.description,
		inputSchema: tool.parameters,
		call: (args, { signal }) => tool.invoke(args, { toolCallId: `mcp-${tool.name}`, signal }),
	};
}
