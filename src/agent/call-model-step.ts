import type { AssistantTurn, ChatRequest, StreamPart } from '../chat/types';
import { forwardStreamPart, type AgentEvent } from './agent-event';

/** Makes one model call and returns the assembled turn; `onPart` sees every stream part. */
export type CallModel = (
	request: ChatRequest,
	options: { signal?: AbortSignal; onPart?: (part: StreamPart) => void },
) => Promise<AssistantTurn>;

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
	step: { iteration: number; final: boolean },
	options: CallModelStepOptions,
): Promise<AssistantTurn> {
	const { emit } = options;
	emit({ type: 'model-call-start', iteration: step.iteration, final: step.final, request });
	const turn = await options.callModel(request, {
		signal: options.signal,
		onPart: (part) => forwardStreamPart(part, emit),
	});
	emit({ type: 'model-call-end', iteration: step.iteration, turn });
	return turn;
}
