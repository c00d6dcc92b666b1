import { IncompleteStreamError } from '../errors/incomplete-stream-error';
import { ReasoningDetailsAccumulator } from './reasoning-details-accumulator';
import type { AssembledToolCall, AssistantTurn, StreamPart } from './types';

/** Called with every part as it arrives (for streaming to a UI); awaited when it returns a promise. */
export type StreamPartListener = (part: StreamPart) => void | Promise<void>;

/**
 * Consumes a stream of parts and assembles the assistant turn: text and reasoning joined
 * once, `reasoning_details` merged for sending back, tool calls, finish reason, usage and
 * the model that answered. Each part is forwarded to `onPart` first.
 *
 * Stopping early (an error part, or `onPart` throwing) ends the iteration, which aborts
 * the HTTP request behind a {@link streamChat} stream.
 * @throws the error of the first `error` part (e.g. MidStreamError, InvalidChunkError, IncompleteStreamError)
 * @throws IncompleteStreamError when the parts end without a `finish` part
 * @throws whatever the stream itself throws (ApiCallError, ChatTimeoutError, ChatAbortedError, ChatConnectionError)
 */
export async function collectTurn(parts: AsyncIterable<StreamPart>, onPart?: StreamPartListener): Promise<AssistantTurn> {
	const textPieces: string[] = [];
	const reasoningPieces: string[] = [];
	const reasoningDetails = new ReasoningDetailsAccumulator();
	const toolCalls: AssembledToolCall[] = [];
	let finish: Extract<StreamPart, { type: 'finish' }> | undefined;

	for await (const part of parts) {
		if (onPart) await onPart(part);
		switch (part.type) {
			case 'text-delta':
				textPieces.push(part.text);
				break;
			case 'reasoning-delta':
				reasoningPieces.push(part.text);
				break;
			case 'reasoning-details':
				reasoningDetails.add(part.details);
				break;
			case 'tool-call':
				toolCalls.push(part.toolCall);
				break;
			case 'finish':
				finish = part;
				break;
			case 'error':
				throw part.error;
			case 'tool-call-delta':
				break;
		}
	}
	if (!finish) throw new IncompleteStreamError(`no finish part among the stream parts`);

	const turn: AssistantTurn = {
		text: textPieces.join(''),
		reasoning: reasoningPieces.join(''),
		reasoningDetails: reasoningDetails.finish(),
		toolCalls,
		finishReason: finish.finishReason,
		rawFinishReason: finish.rawFinishReason,
	};
	if (finish.usage) turn.usage = finish.usage;
	if (finish.model) turn.model = finish.model;
	return turn;
}
