import { collectTurnFromBatches } from '../chat/collect-turn';
import { isOpenRouterUrl } from '../chat/is-openrouter-url';
import { isRetryableError } from '../chat/is-retryable-error';
import { withoutOpenRouterFields } from '../chat/openrouter-fields';
import { RequestBodyWriter } from '../chat/request-body';
import { streamChatBatches, type ChatClientOptions } from '../chat/stream-chat';
import type { AssistantTurn, ChatRequest, StreamPart } from '../chat/types';
import { ApiCallError } from '../errors/api-call-error';
import { ChatTimeoutError } from '../errors/chat-timeout-error';
import type { CallModel } from './call-model-step';

/** Where the model lives: the chat client's options without the per-call signal. */
export type ChatConnection = Omit<ChatClientOptions, 'signal'> & {
	/** Whether the server is OpenRouter (default: from `baseUrl`); only OpenRouter gets `models`, `provider`, `cache_control`. */
	openRouter?: boolean;
	/**
	 * How many times a turn whose stream stalled after it had started (ChatTimeoutError
	 * `stall`) is requested again (default 1). Safe: no tool of that turn has run yet.
	 */
	stallRetries?: number;
};

/**
 * The default `callModel` of the drivers: a streaming Chat Completions call through the
 * package's chat client, assembled into one turn; every stream part is passed to `onPart`
 * as it arrives.
 *
 * - OpenRouter gets the request as built (`models` fallbacks are chosen by OpenRouter; the
 *   turn's `model` names the one that answered). Any other server gets it without
 *   OpenRouter's fields, and `models` becomes a client-side fallback: when a model fails
 *   with a retryable error (429/5xx after the client's own retries, a stall) or 404 (no
 *   such model), the next one is asked; the turn's `model` then names it.
 * - A stream that stalls mid-way is requested again (`stallRetries`); text already passed
 *   to `onPart` for it is passed again.
 * @throws the error of the last model tried (ApiCallError, ChatTimeoutError …)
 */
export function createChatModelCaller(connection: ChatConnection): CallModel {
	const { openRouter: openRouterOverride, stallRetries = 1, ...client } = connection;
	const openRouter = openRouterOverride ?? isOpenRouterUrl(connection.baseUrl);
	// One writer per caller: each turn serializes only the history that is new since the last.
	const bodyWriter = new RequestBodyWriter();
	return async (built, { signal, onPart }) => {
		const { request, fallbackModels } = openRouter ? { request: built, fallbackModels: [] } : withoutOpenRouterFields(built);
		const models = [request.model, ...fallbackModels];
		for (let index = 0; ; index++) {
			const attempt: ChatRequest = index === 0 ? request : { ...request, model: models[index] };
			try {
				const turn = await callWithStallRetry(attempt, { ...client, signal }, stallRetries, onPart, bodyWriter);
				if (fallbackModels.length > 0 && turn.model === undefined) turn.model = attempt.model;
				return turn;
			} catch (error) {
				if (index + 1 >= models.length || signal?.aborted || !fallsBack(error)) throw error;
			}
		}
	};
}

async function callWithStallRetry(
	request: ChatRequest,
	options: ChatClientOptions,
	stallRetries: number,
	onPart: ((part: StreamPart) => void) | undefined,
	bodyWriter: RequestBodyWriter,
): Promise<AssistantTurn> {
	for (let retry = 0; ; retry++) {
		try {
			return await collectTurnFromBatches(streamChatBatches(request, options, bodyWriter), onPart);
		} catch (error) {
			if (retry >= stallRetries || options.signal?.aborted || !(error instanceof ChatTimeoutError && error.phase === 'stall')) throw error;
		}
	}
}

/** Errors after which the next fallback model is worth asking: the model or its providers are unavailable. */
function fallsBack(error: unknown): boolean {
	if (error instanceof ApiCallError) return error.status === 404 || error.status === 408 || error.status >= 500 || isRetryableError(error);
	return isRetryableError(error);
}
