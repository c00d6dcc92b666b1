import type { ChatRequest, ToolCall } from '../chat/types';
import { AgentStoppedError } from './agent-stopped-error';
import type { AgentResult, AgentState } from './agent-state';
import { buildChatRequest } from './build-chat-request';

/** A tool call the driver must run (in-process, or as an n8n engine action). */
export interface ToolCallRequest extends ToolCall {
	/** The n8n node behind the tool, when known. */
	sourceNodeName?: string;
}

/** What a driver must do next with a state. */
export type AgentAction =
	| { type: 'call-model'; request: ChatRequest; final: boolean }
	| { type: 'run-tools'; calls: ToolCallRequest[] }
	| { type: 'done'; result: AgentResult }
	| { type: 'failed'; error: AgentStoppedError };

/**
 * Reads the next action from a state. Pure: the state is not changed. After a
 * `call-model` action feed the turn to `applyModelTurn`; after `run-tools`, the results
 * to `applyToolResults`.
 */
export function nextAction(state: AgentState): AgentAction {
	switch (state.status) {
		case 'ready':
		case 'final-call':
		case 'output-call':
			return {
				type: 'call-model',
				request: buildChatRequest(state),
				final: state.status !== 'ready',
			};
		case 'awaiting-tools': {
			const sources = new Map(state.tools.map((tool) => [tool.name, tool.sourceNodeName]));
			const calls = state.pendingToolCalls
				.filter((call) => call.resolved === undefined)
				.map((call): ToolCallRequest => {
					const request: ToolCallRequest = {
						toolCallId: call.toolCallId,
						name: call.name,
						arguments: call.arguments,
					};
					const sourceNodeName = sources.get(call.name);
					if (sourceNodeName !== undefined) request.sourceNodeName = sourceNodeName;
					return request;
				});
			return { type: 'run-tools', calls };
		}
		case 'done':
			return { type: 'done', result: state.result as AgentResult };
		case 'failed': {
			const failure = state.failure ?? { code: 'model-error', message: 'The agent failed.' };
			return {
				type: 'failed',
				error: new AgentStoppedError(failure.code, failure.message, {
					steps: state.steps,
					usage: state.usage,
					iterations: state.iterations,
				}),
			};
		}
	}
}
