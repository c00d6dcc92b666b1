import { collectTurn } from '../chat/collect-turn';
import { streamChat, type ChatClientOptions } from '../chat/stream-chat';
import type { CallModel } from './run-agent';

/** Where the model lives: the chat client's options without the per-call signal. */
export type ChatConnection = Omit<ChatClientOptions, 'signal'>;

/**
 * The default `callModel` of the driver: a streaming Chat Completions call through the
 * package's chat client, assembled into one turn; every stream part is passed to
 * `onPart` as it arrives.
 */
export function createChatModelCaller(connection: ChatConnection): CallModel {
	return (request, { signal, onPart }) => collectTurn(streamChat(request, { ...connection, signal }), onPart);
}
