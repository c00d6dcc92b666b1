import { argumentChecks } from '../errors/invalid-argument-error';
import { IncompleteStreamError } from '../errors/incomplete-stream-error';
import { ReasoningDetailsAccumulator } from './reasoning-details-accumulator';
import type { AssembledToolCall, AssistantTurn, StreamPart } from './types';

/** Called with every part as it arrives (for streaming to a UI); awaited when it returns a promise. */
export type StreamPartListener = (part: StreamPart) => void | Promise<void>;

/**
 * Assembles one assistant turn from its parts, synchronously: text and reasoning joined
 * once, `reasoning_details` merged for sending back, tool calls, finish reason, usage and
 * the model that answered.
 */
export class TurnAssembler {
	private readonly textPieces: string[] = [];
	private readonly reasoningPieces: string[] = [];
	private readonly reasoningDetails = new ReasoningDetailsAccumulator();
	private readonly toolCalls: AssembledToolCall[] = [];
	private finishPart: Extract<StreamPart, { type: 'finish' }> | undefined;

	/**
	 * @throws the error of an `error` part
	 */
	add(part: StreamPart): void {
		switch (part.type) {
			case 'text-delta':
				this.textPieces.push(part.text);
				break;
			case 'reasoning-delta':
				this.reasoningPieces.push(part.text);
				break;
			case 'reasoning-details':
				this.reasoningDetails.add(part.details);
				break;
			case 'tool-call':
				this.toolCalls.push(part.toolCall);
				break;
			case 'finish':
				this.finishPart = part;
				break;
			case 'error':
				throw part.error;
			case 'tool-call-delta':
				break;
		}
	}

	/**
	 * @throws IncompleteStreamError when no `finish` part came
	 */
	finish(): AssistantTurn {
		const finish = this.finishPart;
		if (!finish) throw new IncompleteStreamError(`no finish part among the stream parts`);
		const turn: AssistantTurn = {
			text: this.textPieces.join(''),
			reasoning: this.reasoningPieces.join(''),
			reasoningDetails: this.reasoningDetails.finish(),
			toolCalls: this.toolCalls,
			finishReason: finish.finishReason,
			rawFinishReason: finish.rawFinishReason,
		};
		if (finish.usage) turn.usage = finish.usage;
		if (finish.model) turn.model = finish.model;
		return turn;
	}
}

/**
 * Consumes a stream of parts and assembles the assistant turn ({@link TurnAssembler}).
 * Each part is forwarded to `onPart` first.
 *
 * Stopping early (an error part, or `onPart` throwing) ends the iteration, which aborts
 * the HTTP request behind a {@link streamChat} stream.
 * @throws the error of the first `error` part (e.g. MidStreamError, InvalidChunkError, IncompleteStreamError)
 * @throws IncompleteStreamError when the parts end without a `finish` part
 * @throws whatever the stream itself throws (ApiCallError, ChatTimeoutError, ChatAbortedError, ChatConnectionError)
 */
export async function collectTurn(
	parts: AsyncIterable<StreamPart>,
	onPart?: StreamPartListener,
): Promise<AssistantTurn> {
	const check = argumentChecks('collectTurn');
	if (
		typeof (parts as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] !==
		'function'
	)
		check.fail('parts', 'an async iterable of stream parts (from streamChat)', parts);
	if (onPart !== undefined && typeof onPart !== 'function')
		check.fail('onPart', 'a function when given', onPart);
	const turn = new TurnAssembler();
	for await (const part of parts) {
		if (onPart) await onPart(part);
		turn.add(part);
	}
	return turn.finish();
}

/**
 * {@link collectTurn} over batches of parts (one per read, as {@link streamChatBatches}
 * yields them): the same turn, one await per read instead of one per part. `onPart` is
 * awaited only when it returns a promise.
 */
export async function collectTurnFromBatches(
	batches: AsyncIterable<readonly StreamPart[]>,
	onPart?: StreamPartListener,
): Promise<AssistantTurn> {
	const turn = new TurnAssembler();
	for await (const batch of batches) {
		for (const part of batch) {
			if (onPart) {
				const pending = onPart(part);
				if (pending) await pending;
			}
			turn.add(part);
		}
	}
	return turn.finish();
}
