import type { ChatMessage } from '../chat/types';
import type { AgentStep, AgentState } from './agent-state';
import type { ToolObservation } from '../tools/agent-tool';
import { expectStatus, reachLimit } from './stop-agent';
import { keepToolImages } from './tool-images';

/** The outcome of one tool call, as a driver reports it. */
export interface ToolCallResult {
	toolCallId: string;
	observation: ToolObservation;
	durationMs: number;
}

/**
 * Takes the results of the pending tool calls into the state: one `tool` message per
 * call, in the order the model made the calls, and one step each. A call with no result
 * gets an error observation (the driver lost it), so the history stays valid. Images among
 * the observations' attachments are kept in `toolImages` for a model that takes images. Then the
 * loop either continues (`ready`) or has reached a limit.
 *
 * @throws {AgentStateError} when the state is not waiting for tool results.
 */
export function applyToolResults(state: AgentState, results: ToolCallResult[]): AgentState {
	expectStatus(state, 'applyToolResults', 'awaiting-tools');
	const byId = new Map(results.map((result) => [result.toolCallId, result]));
	const messages: ChatMessage[] = [...state.messages];
	const steps: AgentStep[] = [...state.steps];

	for (const call of state.pendingToolCalls) {
		const result = call.resolved
			? { observation: call.resolved as ToolObservation, durationMs: 0 }
			: (byId.get(call.toolCallId) ?? {
					observation: {
						content: `No result came back for this call of '${call.name}'.`,
						isError: true,
					},
					durationMs: 0,
				});
		messages.push({
			role: 'tool',
			tool_call_id: call.toolCallId,
			content: result.observation.content,
		});
		const step: AgentStep = {
			iteration: state.iterations,
			toolCallId: call.toolCallId,
			tool: call.name,
			arguments: call.brokenArguments ? call.argumentsText : call.arguments,
			result: result.observation.content,
			isError: result.observation.isError,
			durationMs: result.durationMs,
		};
		if (result.observation.data !== undefined) step.data = result.observation.data;
		steps.push(step);
	}

	const { stopAfterTools, toolImages: keptImages, ...rest } = state;
	const next: AgentState = { ...rest, messages, steps, pendingToolCalls: [], status: 'ready' };
	const toolImages = keepToolImages(keptImages, results, state.config);
	if (toolImages) next.toolImages = toolImages;
	if (stopAfterTools) return reachLimit(next, 'repeated-call', stopAfterTools.message);
	if (next.iterations >= next.config.maxIterations) {
		return reachLimit(
			next,
			'max-iterations',
			`The agent stopped after ${next.iterations} model calls (max iterations ${next.config.maxIterations}) without a final answer; ${steps.length} tool steps were taken.`,
		);
	}
	return next;
}
