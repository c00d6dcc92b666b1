import type { ChatServer } from '../chat/chat-server';
import type { AssistantTurn, ChatRequest, StreamPart } from '../chat/types';
import { forwardStreamPart, type AgentEvent } from './agent-event';

/** What a model call gets besides its request. */
export interface CallModelOptions {
	signal?: AbortSignal;
	/** Receives every stream part as it arrives. */
	onPart?: (part: StreamPart) => void;
	/**
	 * The run's fallback models, for a caller whose server does not route them itself (not
	 * OpenRouter, which gets them in the request as `models`): tried in order when the model fails.
	 */
	fallbackModels?: string[];
}

/**
 * Makes one model call and returns the assembled turn. `server`, when the caller knows it,
 * says where the requests go, so that a run whose config names no server is built for it.
 */
export type CallModel = ((
	request: ChatRequest,
	options: CallModelOptions,
) => Promise<AssistantTurn>) & {
	readonly server?: ChatServer;
};

/** What one model call of a driver needs. */
export interface CallModelStepOptions {
	callModel: CallModel;
	signal?: AbortSignal;
	emit: (event: AgentEvent) => void;
}

/**
 * One model call of any driver (the loop, the engine driver, validator mode): reports
 * `model-call-start`, forwards the stream's text and reasoning deltas, reports
 * `model-call-end` with the assembled turn.
 *
 * @throws the model call's own error (e.g. ApiCallError, ChatAbortedError); the caller
 * decides what it means for its state.
 */
export async function callModelStep(
	request: ChatRequest,
	step: { iteration: number; final: boolean; fallbackModels?: string[] },
	options: CallModelStepOptions,
): Promise<AssistantTurn> {
	const { emit } = options;
	emit({ type: 'model-call-start', iteration: step.iteration, final: step.final, request });
	const turn = await options.callModel(request, {
		signal: options.signal,
		onPart: (part) => forwardStreamPart(part, emit),
		fallbackModels: step.fallbackModels,
	});
	emit({ type: 'model-call-end', iteration: step.iteration, turn });
	return turn;
}
