import { argumentChecks } from '../errors/invalid-argument-error';
import { ApiCallError } from '../errors/api-call-error';
import { ChatAbortedError } from '../errors/chat-aborted-error';
import { ChatConnectionError } from '../errors/chat-connection-error';
import { chatCompletionsUrl } from './chat-completions-url';
import { defaultChatTimeLimits, resolveChatTimeLimits } from './chat-time-limits';
import { AttemptControl, type AttemptLimits } from './http/attempt-control';
import { completionAsSse } from './http/completion-as-sse';
import { errorFromResponse } from './http/error-from-response';
import { requestHeaders } from './http/request-headers';
import { ResponseBodyReader } from './http/response-body-reader';
import { isRetryableError } from './is-retryable-error';
import { ChatStreamParser } from './parse-chat-stream';
import { Redactor } from './redactor';
import { chatRequestBody, type RequestBodyWriter } from './request-body';
import { defaultRetryOptions, retryDelayMs, type RetryOptions } from './retry-policy';
import type { ChatRequest, StreamPart } from './types';

/** Reported before each retry (for debug logs). */
export interface RetryEvent {
	/** 1 for the first retry. */
	attempt: number;
	/** The wait before the retry. */
	delayMs: number;
	/** What the failed attempt threw. */
	error: Error;
}

/** Where and how {@link streamChat} sends a request. */
export interface ChatClientOptions {
	/** e.g. `https://openrouter.ai/api/v1` (a trailing slash or `/chat/completions` is fine). */
	baseUrl: string;
	/** Sent as `Authorization: Bearer …`; never appears in errors (nor do the values of `headers`). */
	apiKey?: string;
	/** The fetch to use (default: the global one). Tests inject theirs. */
	fetch?: typeof globalThis.fetch;
	/** Extra headers; they override the defaults. */
	headers?: Record<string, string>;
	/** Aborts the request, its retries and the waits between them. */
	signal?: AbortSignal;
	/**
	 * Longest wait for the response headers and then between two reads of the stream, per
	 * attempt (default 300000; 0 = none). Time the consumer spends on a part is not counted.
	 */
	timeoutMs?: number;
	/**
	 * Longest wait from sending the request to the first part (a token, reasoning or a tool
	 * call), per attempt; keep-alive comments (`: OPENROUTER PROCESSING`) do not count as a
	 * token. Default 60000; 0 = none. Exceeded → ChatTimeoutError `first-token`, retried like a 503.
	 */
	firstTokenTimeoutMs?: number;
	/**
	 * Once the first part arrived: longest time without any bytes (default 30000; 0 = none).
	 * Exceeded → ChatTimeoutError `stall` (code `CHAT_STREAM_STALLED`).
	 */
	stallTimeoutMs?: number;
	/**
	 * Longest time the whole call may take, from sending the first request to the stream's
	 * end, retries and the waits between them included, however steadily bytes arrive
	 * (default 300000; 0 = none). Exceeded → ChatTimeoutError `total`, not retried.
	 */
	totalTimeoutMs?: number;
	/** How requests that fail before any part are retried (default {@link defaultRetryOptions}). */
	retry?: Partial<RetryOptions>;
	/** Called before each retry. */
	onRetry?: (event: RetryEvent) => void;
	/** Sent as `X-OpenRouter-Title` and `X-Title` (OpenRouter app attribution). */
	appName?: string;
	/** Sent as `HTTP-Referer` (OpenRouter app attribution). */
	appUrl?: string;
}

/** Default of {@link ChatClientOptions.timeoutMs}. */
export const defaultChatTimeoutMs = defaultChatTimeLimits.timeoutMs;

/**
 * Sends a streaming Chat Completions request and yields its parts as they arrive.
 *
 * The request body is passed through as given (fields left `undefined` are not sent),
 * plus `stream: true` and `stream_options.include_usage`. Requests that fail before any
 * part was yielded are retried on 429/502/503 and connection resets, with backoff and
 * jitter, honouring `Retry-After`; once a part was yielded nothing is retried.
 * Breaking out of the iteration aborts the request.
 *
 * Problems inside the stream (a bad chunk, a mid-stream provider error, no
 * `finish_reason`) arrive as `error` parts; request-level failures are thrown.
 * @throws ApiCallError subclass for an HTTP error status (RateLimitError, AuthenticationError, …)
 * @throws ChatTimeoutError when nothing arrives within `timeoutMs`, no token within
 * `firstTokenTimeoutMs`, the started stream stalls for `stallTimeoutMs`, or the whole call
 * outlasts `totalTimeoutMs`
 * @throws ChatAbortedError when `signal` aborts
 * @throws ChatConnectionError when the connection fails or breaks
 * @throws ToolbridgeError `CHAT_BASE_URL_INVALID` for a base URL that is not http(s)
 */
export async function* streamChat(
	request: ChatRequest,
	options: ChatClientOptions,
): AsyncGenerator<StreamPart, void, undefined> {
	const check = argumentChecks('streamChat');
	check.array(check.object(request, 'request').messages, 'request.messages');
	check.string(check.object(options, 'options').baseUrl, 'options.baseUrl');
	for await (const batch of streamChatBatches(request, options)) yield* batch;
}

/**
 * {@link streamChat}, one batch per read of the response body: the parts that read
 * completed (never an empty batch). What the package's own callers use: a part costs no
 * await of its own, a read one. A caller that sends one growing history again and again
 * passes a {@link RequestBodyWriter}, which serializes only what is new.
 * @throws everything {@link streamChat} throws
 */
export async function* streamChatBatches(
	request: ChatRequest,
	options: ChatClientOptions,
	bodyWriter?: RequestBodyWriter,
): AsyncGenerator<StreamPart[], void, undefined> {
	const url = chatCompletionsUrl(options.baseUrl);
	const fetchFunction = options.fetch ?? globalThis.fetch;
	const retry: RetryOptions = { ...defaultRetryOptions, ...options.retry };
	const resolved = resolveChatTimeLimits(options);
	const limits: AttemptLimits = {
		...resolved,
		deadline: resolved.totalTimeoutMs > 0 ? Date.now() + resolved.totalTimeoutMs : Infinity,
	};
	const body = bodyWriter ? bodyWriter.write(request) : chatRequestBody(request);
	const headers = requestHeaders(options);
	// The errors this client makes from what the server sent (an HTTP error body, a mid-stream
	// error, a broken chunk) may echo the key or a header value.
	const redactor = new Redactor([options.apiKey, ...Object.values(options.headers ?? {})]);
	let yielded = false;

	for (let attempt = 0; ; attempt++) {
		if (options.signal?.aborted) throw new ChatAbortedError({ cause: options.signal.reason });
		const control = new AttemptControl(options.signal, limits);
		let completed = false;
		try {
			let response: Response;
			try {
				response = await fetchFunction(url, {
					method: 'POST',
					headers,
					body,
					signal: control.signal,
				});
				if (!response.ok) throw await errorFromResponse(response, url, redactor);
			} catch (error) {
				throw control.translate(error, url);
			}
			control.headersReceived();
			if (!response.body) throw new ChatConnectionError(url, 'NO_RESPONSE_BODY');
			const reader = new ResponseBodyReader(response.body, control);
			const parser = new ChatStreamParser(redactor);
			let parsed = false;
			try {
				// A server that ignored `stream: true` sends JSON: its whole body is parsed as one event.
				const wholeJson = /application\/json/i.test(response.headers.get('content-type') ?? '');
				for (
					let bytes = wholeJson
						? completionAsSse(await reader.readAll())
						: reader.received(await reader.read());
					bytes !== undefined;
					bytes = reader.received(await reader.read())
				) {
					const parts = parser.push(bytes);
					if (parts.length > 0) {
						yielded = true;
						// The consumer's time on a batch is not stream inactivity.
						control.pause();
						yield parts;
						control.resume();
					}
					if (parser.done) break;
				}
				const last = parser.end();
				if (last.length > 0) {
					yielded = true;
					control.pause();
					yield last;
					control.resume();
				}
				parsed = true;
			} catch (error) {
				throw control.translate(error, url);
			} finally {
				// Also reached when the consumer stopped early (an error part, an abort): nothing more is wanted.
				if (parsed) reader.release();
				else reader.cancel();
			}
			completed = true;
			return;
		} catch (error) {
			if (yielded || attempt >= retry.maxRetries || !isRetryableError(error)) throw error;
			const delayMs = retryDelayMs(
				attempt,
				retry,
				error instanceof ApiCallError ? error.retryAfterMs : undefined,
			);
			// A retry that could only start after the call's deadline is not worth the wait.
			if (Date.now() + delayMs >= limits.deadline) throw error;
			options.onRetry?.({ attempt: attempt + 1, delayMs, error: error as Error });
			control.dispose(true);
			await sleep(delayMs, options.signal);
		} finally {
			control.dispose(!completed);
		}
	}
}

/** Waits between attempts; `signal` cuts the wait short with a ChatAbortedError. */
function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new ChatAbortedError({ cause: signal.reason }));
		const onAbort = () => {
			clearTimeout(timer);
			reject(new ChatAbortedError({ cause: signal?.reason }));
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		}, milliseconds);
		signal?.addEventListener('abort', onAbort, { once: true });
	});
}
