import type { LangChainToolLike } from '../../../tools/agent-tool-from-langchain';

/** Where n8n's engine runs a tool: plain JSON, kept in the engine metadata between re-entries. */
export interface ToolRoute {
	/** The node the engine runs for a call (for a gated tool: the human-review node). */
	nodeName?: string;
	/** Set for a tool behind a human-review (`…HitlTool`) gate: the node that runs once approved. */
	gatedToolNodeName?: string;
	/** The tool comes from a toolkit (one node, many tools): the node reads the tool name from `tool`. */
	fromToolkit?: true;
	/** The tool is a nested Agent Orchestrator: its run's `output` is the answer the model reads. */
	nestedAgent?: true;
}

/**
 * Reads a connected tool's route from the metadata n8n-core gives it: `sourceNodeName`
 * (every connected tool), `gatedToolNodeName` (tools behind a review gate), `isFromToolkit`,
 * and our own `toolbridge.nestedAgent` (a nested Agent Orchestrator).
 */
export function toolRouteOf(tool: Pick<LangChainToolLike, 'metadata'>): ToolRoute {
	const metadata = tool.metadata ?? {};
	const route: ToolRoute = {};
	if (typeof metadata.sourceNodeName === 'string') route.nodeName = metadata.sourceNodeName;
	if (typeof metadata.gatedToolNodeName === 'string')
		route.gatedToolNodeName = metadata.gatedToolNodeName;
	if (metadata.isFromToolkit === true) route.fromToolkit = true;
	const toolbridge = metadata.toolbridge as { nestedAgent?: unknown } | undefined;
	if (toolbridge?.nestedAgent === true) route.nestedAgent = true;
	return route;
}
