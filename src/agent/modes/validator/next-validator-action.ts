import { toWireTool } from '../../../chat/tool-conversion';
import type { ChatRequest } from '../../../chat/types';
import { ValidatorError } from './validator-error';
import { modelRequest } from '../../model-options';
import type { ToolCallRequest } from '../../next-action';
import type { ValidatorResult, ValidatorState } from './validator-state';

/**
 * What a driver must do next with a validator state. The shapes match the agent loop's
 * actions (`call-model`, `run-tools` with one call), so a driver that runs tool calls as
 * n8n engine actions can run the validated call the same way.
 */
export type ValidatorAction =
	| { type: 'call-model'; request: ChatRequest; attempt: number }
	| { type: 'run-tools'; calls: [ToolCallRequest] }
	| { type: 'done'; result: ValidatorResult }
	| { type: 'failed'; error: ValidatorError };

/** Reads the next action from a validator state. Pure. */
export function nextValidatorAction(state: ValidatorState): ValidatorAction {
	switch (state.status) {
		case 'ready':
			return {
				type: 'call-model',
				request: buildValidatorRequest(state),
				attempt: state.attempts.length + 1,
			};
		case 'awaiting-tool': {
			const call = state.call!;
			const request: ToolCallRequest = {
				toolCallId: call.toolCallId,
				name: call.name,
				arguments: call.arguments,
			};
			if (call.sourceNodeName !== undefined) request.sourceNodeName = call.sourceNodeName;
			return { type: 'run-tools', calls: [request] };
		}
		case 'done':
			return { type: 'done', result: state.result! };
		case 'failed': {
			const failure = state.failure ?? { code: 'model-error', message: 'The validator failed.' };
			return {
				type: 'failed',
				error: new ValidatorError(failure.code, failure.message, {
					attempts: state.attempts,
					usage: state.usage,
				}),
			};
		}
	}
}

/**
 * The request of the next attempt: the chosen tool only (forced by name), or every tool
 * with `tool_choice: "required"`; one call per turn; the model settings (sampling,
 * reasoning, fallbacks, provider routing, prompt caching, provider options) as in the full loop.
 */
export function buildValidatorRequest(state: ValidatorState): ChatRequest {
	const { config } = state;
	const offered =
		config.toolName === undefined
			? state.tools
			: state.tools.filter((tool) => tool.name === config.toolName);
	// The same model settings as the full loop sends (one place: modelRequest).
	return modelRequest(config, state.messages, (request) => {
		// The canonical schemas, unshaped: the arguments are validated against exactly what is sent.
		request.tools = offered.map((tool) => toWireTool(tool));
		request.tool_choice =
			config.toolName === undefined
				? 'required'
				: { type: 'function', function: { name: config.toolName } };
		request.parallel_tool_calls = false;
	});
}
