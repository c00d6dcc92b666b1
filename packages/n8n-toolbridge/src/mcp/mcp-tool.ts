import type { AgentTool, JsonSchema, ToolObservation, ToolReview } from 'n8n-nodes-toolbridge';
import type { McpToolAnnotations } from './tool-annotations';

/** What a tool call may report while it runs. */
export interface McpToolCallContext {
	signal: AbortSignal;
	/** A progress note for the client (sent only when the client asked for progress). */
	progress: (message: string) => void;
	/**
	 * The call's human review already happened (the MCP server asked its client): a tool with
	 * a `review` requirement runs without asking again.
	 */
	reviewed?: true;
}

/** A tool as the MCP server offers it. */
export interface McpTool {
	name: string;
	/** A human-readable name (the node's name), for clients that show one. */
	title?: string;
	description: string;
	/** The JSON Schema of the arguments (`inputSchema`), draft-07 or 2020-12. */
	inputSchema: JsonSchema;
	/** MCP's behaviour hints (see `toolAnnotations`). */
	annotations?: McpToolAnnotations;
	/**
	 * Set when a person must approve each call (a tool behind an n8n review gate): the server
	 * asks its client (elicitation, or 2026's `input_required`) and calls with `reviewed`, or
	 * refuses when the client can do neither.
	 */
	review?: ToolReview;
	/** Never throws for bad arguments or a failing run: answers with `isError`. */
	call(args: Record<string, unknown>, context: McpToolCallContext): Promise<ToolObservation>;
}

/**
 * A session's tool (`openWorkflowSession().tools`: already time-limited, its observations
 * through the session's boundary) as an MCP tool: the compiler's schema, the real node run.
 * The client's cancellation stops the call at once.
 */
export function mcpToolFromAgentTool(
	tool: AgentTool,
	extra: Pick<McpTool, 'title' | 'annotations'> = {},
): McpTool {
	return {
		name: tool.name,
		description: tool.description,
		inputSchema: tool.parameters,
		...extra,
		...(tool.review ? { review: tool.review } : {}),
		call: (args, { signal, reviewed }) =>
			tool.invoke(args, { toolCallId: `mcp-${tool.name}`, signal, reviewed }),
	};
}
