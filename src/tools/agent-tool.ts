import type { JsonSchema } from '../schema/json-schema';
import type { ToolSchema } from '../schema/build-tool-schema';
import type { ToolReview } from './tool-review';

/** What a tool hands back to the agent: the text the model reads, and whether it is an error. */
export interface ToolObservation {
	/** The text the model reads as the tool message content. */
	content: string;
	/** True when the call failed (bad arguments, node error, timeout, decline). */
	isError: boolean;
	/** The structured result, for `steps` in the node output (never sent to the model). */
	data?: unknown;
	/**
	 * The JSON value `content` is the text of, when it is one: set by whoever produced the text,
	 * from the same value, so nothing downstream parses the text back (MCP's
	 * `structuredContent`). Absent for errors, plain text and text with notes appended.
	 */
	value?: unknown;
}

export interface ToolInvokeOptions {
	toolCallId: string;
	signal?: AbortSignal;
	/**
	 * This call's human review already happened and approved it (a tool behind a review gate
	 * then runs without asking again; see {@link AgentTool.review}).
	 */
	reviewed?: true;
}

/**
 * A tool as the agent loop, the MCP server and the CLI see it, independent of LangChain.
 * Built by our bridge (`createNodeAsTool`, `createNestedAgentTool`) or adapted once from
 * a LangChain tool n8n hands us (`agentToolFromLangChain`); a LangChain view of our own tools
 * is made only where something needs one (`toLangChainTool`).
 *
 * `invoke` never throws for bad model input or a failing tool: it returns an
 * observation with `isError: true` so the model can correct itself.
 */
export interface AgentTool {
	name: string;
	description: string;
	/** JSON Schema of the arguments object, as sent to the model. */
	parameters: JsonSchema;
	/** The n8n node that supplies the tool, used to map calls to engine actions. */
	sourceNodeName?: string;
	/** That node's type (`n8n-nodes-base.crypto`), when known. */
	nodeType?: string;
	/** True for a nested agent: a call runs another agent's whole loop. */
	nestedAgent?: true;
	/**
	 * Set for a tool behind a human-review gate (an n8n `…HitlTool` node): each call is
	 * approved first (`gateToolWithReview`); a tool's time limit starts after the approval.
	 */
	review?: ToolReview;
	invoke(args: Record<string, unknown>, options: ToolInvokeOptions): Promise<ToolObservation>;
}

/**
 * A tool this package compiled from `$fromAI` markers (a node, or a nested agent's prompt):
 * an {@link AgentTool} that also carries its compiled schema (Zod for lenient checks, the JSON
 * Schema it sends), from which a LangChain view can be made.
 */
export interface CompiledTool extends AgentTool {
	schema: ToolSchema;
}
