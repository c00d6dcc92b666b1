import { collectTurnFromBatches } from '../chat/collect-turn';
import { resolveChatTimeLimits } from '../chat/chat-time-limits';
import { chatServerOf, chatServers } from '../chat/chat-server';
import { isRetryableError } from '../chat/is-retryable-error';
import { RequestBodyWriter } from '../chat/request-body';
import { streamChatBatches, type ChatClientOptions } from '../chat/stream-chat';
import type { AssistantTurn, ChatRequest, StreamPart } from '../chat/types';
import { ApiCallError } from '../errors/api-call-error';
import { ChatTimeoutError } from '../errors/chat-timeout-error';
import type { CallModel, CallModelOptions } from './call-model-step';

/** Where the model lives: the chat client's options without the per-call signal. */
export type ChatConnection = Omit<ChatClientOptions, 'signal'> & {
	/** Whether the server is OpenRouter (default: from `baseUrl`); see `chatServerOf`. */
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
 * as it arrives. The caller carries its `server` (from the connection), and the drivers build
 * a run's requests for it: only OpenRouter gets `models`, `provider` and `cache_control`.
 *
 * - Fallback models: OpenRouter chooses among `models` itself (the turn's `model` names the
 *   one that answered). On any other server this caller tries the call's `fallbackModels`
 *   in order: when a model fails with a retryable error (429/5xx after the client's own
 *   retries, a stall) or 404 (no such model), the next one is asked; the turn's `model`
 *   then names it.
 * - A stream that stalls mid-way is requested again (`stallRetries`); text already passed
 *   to `onPart` for it is passed again.
 * - `totalTimeoutMs` (default 300 s; 0 = none) bounds the whole model call: stall retries and
 *   fallback models share it, so a call never outlasts it (ChatTimeoutError `total`).
 * @throws the error of the last model tried (ApiCallError, ChatTimeoutError …)
 */
export function createChatModelCaller(connection: ChatConnection): CallModel {
	const { openRouter: _openRouter, stallRetries = 1, ...client } = connection;
	const server = chatServerOf(connection);
	const clientFallbacks = chatServers[server].fallbacks === 'client';
	// One writer per caller: each turn serializes only the history that is new since the last.
	const bodyWriter = new RequestBodyWriter();
	const { totalTimeoutMs } = resolveChatTimeLimits(client);
	const callModel = async (
		request: ChatRequest,
		{ signal, onPart, fallbackModels = [] }: CallModelOptions,
	): Promise<AssistantTurn> => {
		const fallbacks = clientFallbacks
			? fallbackModels.filter((model) => model !== request.model)
			: [];
		const models = [request.model, ...fallbacks];
		const budget = new CallBudget(totalTimeoutMs);
		for (let index = 0; ; index++) {
			const attempt: ChatRequest = index === 0 ? request : { ...request, model: models[index] };
			try {
				const turn = await callWithStallRetry(
					attempt,
					{ ...client, signal },
					stallRetries,
					onPart,
					bodyWriter,
					budget,
				);
				if (fallbacks.length > 0 && turn.model === undefined) turn.model = attempt.model;
				return turn;
			} catch (error) {
				if (index + 1 >= models.length || signal?.aborted || !fallsBack(error)) throw error;
			}
		}
	};
	return Object.assign(callModel, { server });
}

async function callWithStallRetry(
	request: ChatRequest,
	options: ChatClientOptions,
	stallRetries: number,
	onPart: ((part: StreamPart) => void) | undefined,
	bodyWriter: RequestBodyWriter,
	budget: CallBudget,
): Promise<AssistantTurn> {
	for (let retry = 0; ; retry++) {
		try {
			return await collectTurnFromBatches(
				streamChatBatches(request, { ...options, totalTimeoutMs: budget.remaining() }, bodyWriter),
				onPart,
			);
		} catch (error) {
			const failure = budget.translate(error);
			if (
				retry >= stallRetries ||
				options.signal?.aborted ||
				!(failure instanceof ChatTimeoutError && failure.phase === 'stall')
			)
				throw failure;
		}
	}
}

/** The time one model call may still take, shared by its stall retries and fallback models. */
class CallBudget {
	private readonly deadline: number;

	constructor(private readonly totalTimeoutMs: number) {
		this.deadline = totalTimeoutMs > 0 ? Date.now() + totalTimeoutMs : Infinity;
	}

	/**
	 * What the next request may take (0 = no limit).
	 * @throws {ChatTimeoutError} `total` when nothing is left.
	 */
	remaining(): number {
		if (this.deadline === Infinity) return 0;
		const left = this.deadline - Date.now();
		if (left <= 0) throw new ChatTimeoutError(this.totalTimeoutMs, 'total');
		return left;
	}

	/** A request's `total` timeout names the whole call's limit, not what was left of it. */
	translate(error: unknown): unknown {
		return error instanceof ChatTimeoutError && error.phase === 'total'
			? new ChatTimeoutError(this.totalTimeoutMs, 'total')
			: error;
	}
}

/** Errors after which the next fallback model is worth asking: the model or its providers are unavailable. */
function fallsBack(error: unknown): boolean {
	if (error instanceof ApiCallError)
		return (
			error.status === 404 || error.status === 408 || error.status >= 500 || isRetryableError(error)
		);
	return isRetryableError(error);
}
