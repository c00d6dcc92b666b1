import type { JsonSchema } from '../schema/json-schema';

/** What a tool hands back to the agent: the text the model reads, and whether it is an error. */
export interface ToolObservation {
	/** The text the model reads as the tool message content. */
	content: string;
	/** True when the call failed (bad arguments, node error, timeout, decline). */
	isError: boolean;
	/** The structured result, for `steps` in the node output (never sent to the model). */
	data?: unknown;
}

export interface ToolInvokeOptions {
	toolCallId: string;
	signal?: AbortSignal;
}

/**
 * A tool as the agent loop sees it, independent of LangChain. Built from our bridge
 * (`createNodeAsTool`) or from any LangChain structured tool n8n hands us.
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
	invoke(args: Record<string, unknown>, options: ToolInvokeOptions): Promise<ToolObservation>;
}
