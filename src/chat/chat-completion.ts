import { collectTurnFromBatches, type StreamPartListener } from './collect-turn';
import { streamChatBatches, type ChatClientOptions } from './stream-chat';
import type { AssistantTurn, ChatRequest } from './types';

/**
 * Sends one streaming request and returns the assembled turn, forwarding every part to
 * `onPart` as it arrives (for `sendChunk`-style streaming).
 * @throws everything {@link streamChat} and {@link collectTurn} throw
 */
export function chatCompletion(
	request: ChatRequest,
	options: ChatClientOptions & { onPart?: StreamPartListener },
): Promise<AssistantTurn> {
	return collectTurnFromBatches(streamChatBatches(request, options), options.onPart);
}
