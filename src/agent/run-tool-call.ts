import type { AgentTool, ToolObservation } from '../tools/agent-tool';
import type { ToolCallResult } from './apply-tool-results';
import type { ToolCallRequest } from './next-action';

/**
 * Runs one tool call in-process, for the loop and validator mode alike. Never throws: a
 * missing tool or a tool that throws becomes an error observation the model reads.
 */
export async function runToolCall(tool: AgentTool | undefined, call: ToolCallRequest, signal?: AbortSignal): Promise<ToolCallResult> {
	const started = performance.now();
	let observation: ToolObservation;
	if (!tool) {
		observation = { content: `Tool '${call.name}' has no implementation in this run.`, isError: true };
	} else {
		try {
			observation = await tool.invoke(call.arguments, { toolCallId: call.toolCallId, signal });
		} catch (error) {
			observation = { content: `Tool '${call.name}' failed: ${(error as Error)?.message ?? String(error)}`, isError: true };
		}
	}
	return { toolCallId: call.toolCallId, observation, durationMs: performance.now() - started };
}
