import type { ChatRequest, WireTool, WireToolChoice } from '../chat/types';
import type { AgentState } from './agent-state';
import { finalAnswerInstruction } from './tool-observations';

/**
 * The Chat Completions request for the next model call of a state in `ready` or
 * `final-call`. Only settings that were given are sent.
 *
 * A final call keeps the tool definitions (providers such as Anthropic reject a history
 * with tool calls but no tools) with `tool_choice: "none"`, and adds one user message
 * telling the model to answer; that message is not kept in the state.
 */
export function buildChatRequest(state: AgentState): ChatRequest {
	const { config } = state;
	const final = state.status === 'final-call';
	const request: ChatRequest = { model: config.model, messages: state.messages };
	if (final) {
		request.messages = [
			...state.messages,
			{ role: 'user', content: finalAnswerInstruction(state.limitReached ?? 'max-iterations') },
		];
	}
	if (state.tools.length > 0) {
		request.tools = state.tools.map(
			(tool): WireTool => ({
				type: 'function',
				function: { name: tool.name, description: tool.description, parameters: tool.parameters },
			}),
		);
		const choice = final ? 'none' : toolChoiceFor(state);
		if (choice !== 'auto') request.tool_choice = choice;
		if (config.parallelToolCalls !== undefined && !final) request.parallel_tool_calls = config.parallelToolCalls;
	}
	if (config.temperature !== undefined) request.temperature = config.temperature;
	if (config.maxTokens !== undefined) request.max_tokens = config.maxTokens;
	if (config.reasoning !== undefined) request.reasoning = config.reasoning;
	return request;
}

/** `required` and a named tool bind the first call only; later calls may answer. */
function toolChoiceFor(state: AgentState): WireToolChoice {
	const choice = state.config.toolChoice;
	if (choice === 'auto' || choice === 'none') return choice;
	if (state.iterations > 0) return 'auto';
	if (choice === 'required') return 'required';
	return { type: 'function', function: { name: choice.name } };
}
