import type { JsonSchema } from '../schema/json-schema';
import type { ToolSchema } from '../schema/build-tool-schema';
import type { ToolAttachment } from './tool-attachment';

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
	/**
	 * Images and sounds the tool returned (a node's binary output), bounded in count and size:
	 * sent as MCP image/audio content, and as image parts to models that take images. `content`
	 * names each of them (and any left out), so a reader without them loses nothing else.
	 */
	attachments?: ToolAttachment[];
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

/** What a reviewer sees before a gated tool runs. */
export interface ToolReviewRequest {
	/** The tool the model (or client) called. */
	toolName: string;
	/** The node that gates it (an n8n `…HitlTool` node). */
	reviewNodeName: string;
	/** The arguments of this call. */
	arguments: Record<string, unknown>;
	/** The approval text: the gate node's Message, `$tool.name` and `$tool.parameters` filled in. */
	message: string;
	/** The gate's approve button label (default "Approve"). */
	approveLabel: string;
	/** The gate's decline button label (default "Decline"). */
	declineLabel: string;
}

/** A reviewer's answer. Only `approved: true` runs the tool. */
export interface ToolReviewDecision {
	approved: boolean;
	/** Their words, or why nobody could review (passed on to the model when declined). */
	reason?: string;
}

/**
 * Decides whether a gated tool call runs: a person at a terminal, an MCP client's user, a
 * chat approval flow. It may take as long as it needs (a tool's time limit starts after the
 * approval); `signal` aborts when the run stops.
 */
export type ToolReviewer = (
	request: ToolReviewRequest,
	options: { signal?: AbortSignal },
) => ToolReviewDecision | Promise<ToolReviewDecision>;

/** A tool's review requirement (set on tools behind a human-review gate). */
export interface ToolReview {
	reviewNodeName: string;
	/** The request a reviewer sees for these arguments. */
	request(args: Record<string, unknown>): ToolReviewRequest;
	/**
	 * Asks the reviewer the tool was built with; without one the answer is a refusal saying
	 * so — a gated tool never runs unreviewed.
	 */
	ask(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolReviewDecision>;
}
