import { ApiCallError, createApiCallError } from '../errors/api-call-error';
import { ChatAbortedError } from '../errors/chat-aborted-error';
import { ChatConnectionError } from '../errors/chat-connection-error';
import { ChatTimeoutError, type ChatTimeoutPhase } from '../errors/chat-timeout-error';
import { ToolbridgeError } from '../errors/toolbridge-error';
import { chatCompletionsUrl } from './chat-completions-url';
import { returnAbortController, takeAbortController } from './abort-controller-pool';
import { Watchdog, type Watched } from './watchdog';
import { completionToChunk } from './completion-to-chunk';
import { isRetryableError } from './is-retryable-error';
import { ChatStreamParser } from './parse-chat-stream';
import { redactSecrets } from './redact-secrets';
import { chatRequestBody, type RequestBodyWriter } from './request-body';
import { defaultRetryOptions, parseRetryAfter, retryDelayMs, type RetryOptions } from './retry-policy';
import type { ChatRequest, StreamPart } from './types';

/** Reported before each retry (for debug logs). */
export interface RetryEvent {
	/** 1 for the first retry. */
	attempt: number;
	delayMs: number;
	error: Error;
}

/** Where and how {@link streamChat} sends a request. */
export interface ChatClientOptions {
	/** e.g. `https://openrouter.ai/api/v1` (a trailing slash or `/chat/completions` is fine). */
	baseUrl: string;
	/** Sent as `Authorization: Bearer …`; never appears in error messages. */
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
	 * token. Default: none. Exceeded → ChatTimeoutError `first-token`, retried like a 503.
	 */
	firstTokenTimeoutMs?: number;
	/**
	 * Once the first part arrived: longest time without any bytes (default: `timeoutMs`).
	 * Exceeded → ChatTimeoutError `stall` (code `CHAT_STREAM_STALLED`).
	 */
	stallTimeoutMs?: number;
	retry?: Partial<RetryOptions>;
	/** Called before each retry. */
	onRetry?: (event: RetryEvent) => void;
	/** Sent as `X-OpenRouter-Title` and `X-Title` (OpenRouter app attribution). */
	appName?: string;
	/** Sent as `HTTP-Referer` (OpenRouter app attribution). */
	appUrl?: string;
}

/** Default of {@link ChatClientOptions.timeoutMs}. */
export const defaultChatTimeoutMs = 300_000;

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
 * `firstTokenTimeoutMs`, or the started stream stalls for `stallTimeoutMs`
 * @throws ChatAbortedError when `signal` aborts
 * @throws ChatConnectionError when the connection fails or breaks
 * @throws ToolbridgeError `CHAT_BASE_URL_INVALID` for a base URL that is not http(s)
 */
export async function* streamChat(request: ChatRequest, options: ChatClientOptions): AsyncGenerator<StreamPart, void, undefined> {
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
	const limits: WatchdogLimits = {
		timeoutMs: options.timeoutMs ?? defaultChatTimeoutMs,
		firstTokenTimeoutMs: options.firstTokenTimeoutMs ?? 0,
		stallTimeoutMs: options.stallTimeoutMs ?? 0,
	};
	const body = bodyWriter ? bodyWriter.write(request) : chatRequestBody(request);
	const headers = buildHeaders(options);
	let yielded = false;

	for (let attempt = 0; ; attempt++) {
		if (options.signal?.aborted) throw new ChatAbortedError({ cause: options.signal.reason });
		const control = new AttemptControl(options.signal, limits);
		let completed = false;
		try {
			let response: Response;
			try {
				response = await fetchFunction(url, { method: 'POST', headers, body, signal: control.signal });
				if (!response.ok) throw await errorFromResponse(response, url, options.apiKey);
			} catch (error) {
				throw control.translate(error, url);
			}
			control.headersReceived();
			if (!response.body) throw new ChatConnectionError(url, 'NO_RESPONSE_BODY');
			const reader = new ResponseBodyReader(response.body, control);
			const parser = new ChatStreamParser();
			let parsed = false;
			try {
				// A server that ignored `stream: true` sends JSON: its whole body is parsed as one event.
				const wholeJson = /application\/json/i.test(response.headers.get('content-type') ?? '');
				for (let bytes = wholeJson ? completionAsSse(await reader.readAll()) : reader.received(await reader.read()); bytes !== undefined; bytes = reader.received(await reader.read())) {
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
			const delayMs = retryDelayMs(attempt, retry, error instanceof ApiCallError ? error.retryAfterMs : undefined);
			options.onRetry?.({ attempt: attempt + 1, delayMs, error: error as Error });
			control.dispose(true);
			await sleep(delayMs, options.signal);
		} finally {
			control.dispose(!completed);
		}
	}
}

function buildHeaders(options: ChatClientOptions): Record<string, string> {
	const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
	if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
	if (options.appUrl) headers['HTTP-Referer'] = options.appUrl;
	if (options.appName) {
		headers['X-OpenRouter-Title'] = options.appName;
		headers['X-Title'] = options.appName;
	}
	return { ...headers, ...options.headers };
}

async function errorFromResponse(response: Response, url: string, apiKey: string | undefined): Promise<ApiCallError> {
	let text = '';
	try {
		text = redactSecrets(await response.text(), apiKey ? [apiKey] : []);
	} catch {
		// The body is only for the message; the status alone still makes a useful error.
	}
	let providerMessage: string | undefined;
	let providerCode: string | number | undefined;
	try {
		const parsed = JSON.parse(text) as { error?: { message?: unknown; code?: unknown; metadata?: { provider_name?: unknown } } | string; message?: unknown };
		const errorField = parsed.error;
		if (typeof errorField === 'string') providerMessage = errorField;
		else if (errorField && typeof errorField === 'object') {
			if (typeof errorField.message === 'string') providerMessage = errorField.message;
			if (typeof errorField.code === 'string' || typeof errorField.code === 'number') providerCode = errorField.code;
			const provider = errorField.metadata?.provider_name;
			if (typeof provider === 'string' && providerMessage) providerMessage += ` (provider: ${provider})`;
		} else if (typeof parsed.message === 'string') providerMessage = parsed.message;
	} catch {
		if (text.trim() !== '') providerMessage = text.trim().slice(0, 300);
	}
	return createApiCallError(
		{
			status: response.status,
			providerCode,
			responseBody: text.length > 4096 ? `${text.slice(0, 4096)}…` : text,
			retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
			url,
		},
		providerMessage,
	);
}

/** How long the rest of a finished stream (after `[DONE]`) may take to arrive before it is cancelled. */
const bodyDrainGraceMs = 5_000;

/** Watches the time limits of all attempts, and bodies left to end by themselves, with one timer. */
const watchdog = new Watchdog();

/** What one read of a response body gives. */
type BodyRead = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/**
 * Reads a response body for {@link ChatStreamParser}. The parser stops at `[DONE]`, often one
 * read before the body's end: `release` then leaves the end to arrive by itself, so the
 * keep-alive connection goes back to the pool (cancelling would abort the fetch: a
 * DOMException, the connection possibly closed, and a new one, TLS included, for the next
 * turn); `cancel` gives the body up (an error, a consumer that stopped early).
 */
class ResponseBodyReader {
	private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
	private settled = false;

	constructor(
		body: ReadableStream<Uint8Array>,
		private readonly control: AttemptControl,
	) {
		this.reader = body.getReader();
	}

	/** The next read (plain, no wrapper: a read costs one await); hand its result to {@link received}. */
	read(): Promise<BodyRead> {
		return this.reader.read();
	}

	/** The bytes of a read, `undefined` at the body's end. */
	received(result: BodyRead): Uint8Array | undefined {
		this.control.activity();
		if (!result.done) return result.value;
		this.settled = true;
		return undefined;
	}

	/** The rest of the body, whole. */
	async readAll(): Promise<Buffer> {
		const pieces: Uint8Array[] = [];
		for (let bytes = this.received(await this.read()); bytes !== undefined; bytes = this.received(await this.read())) pieces.push(bytes);
		return Buffer.concat(pieces);
	}

	/**
	 * The stream is complete. The rest of the body, normally just its end and already on its
	 * way, is read in the background, not awaited: awaiting it cost ~0.05–0.1× of a bare
	 * round trip per turn in the loop bench (the bare client pays it). It must be read all
	 * the same: nobody pulls a body left alone, so it never learns its end has come and stays
	 * open, with fetch's buffers (~60 KB), until the grace runs out — 5 s of every response
	 * kept in memory under load. A body still open {@link bodyDrainGraceMs} later (a server
	 * that goes on after `[DONE]`) is cancelled.
	 */
	release(): void {
		if (this.settled) return;
		this.settled = true;
		const reader = this.reader;
		const leftover: Watched = {
			check: () => {
				reader.cancel().catch(() => undefined);
				return undefined;
			},
		};
		watchdog.watch(leftover, Date.now() + bodyDrainGraceMs);
		const closed = () => watchdog.unwatch(leftover);
		const drain = (): void => {
			reader.read().then((result) => (result.done ? closed() : drain()), closed);
		};
		drain();
	}

	/** Nothing more is wanted from the body. */
	cancel(): void {
		if (this.settled) return;
		this.settled = true;
		this.reader.cancel().catch(() => undefined);
	}
}

/** A whole JSON `chat.completion` body (a server that ignored `stream: true`) re-framed as one SSE event. */
function completionAsSse(body: Buffer): Uint8Array {
	const text = body.toString('utf8');
	let framed: string;
	try {
		framed = `data: ${JSON.stringify(completionToChunk(JSON.parse(text)))}\n\n`;
	} catch {
		framed = `data: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
	}
	return Buffer.from(framed, 'utf8');
}

/** The time limits of one attempt, in ms; 0 = none. */
interface WatchdogLimits {
	timeoutMs: number;
	firstTokenTimeoutMs: number;
	stallTimeoutMs: number;
}

/**
 * One attempt's abort controller, linked to the caller's signal, and its time limits. Reads
 * only stamp `lastActivity`; the shared {@link Watchdog} checks the stamps at the earliest
 * moment a limit could run out and asks again later if nothing ran out (re-arming a timer
 * per read cost ~0.3× of a bare round trip in the loop bench; a timer per attempt, a few %).
 */
class AttemptControl implements Watched {
	private readonly controller = takeAbortController();
	private timedOut: { phase: ChatTimeoutPhase; timeoutMs: number } | undefined;
	private readonly startedAt = Date.now();
	private lastActivity = this.startedAt;
	private headers = false;
	private firstPart = false;
	private paused = false;
	private disposed = false;
	private readonly onOuterAbort = () => this.controller.abort();

	constructor(
		private readonly outer: AbortSignal | undefined,
		private readonly limits: WatchdogLimits,
	) {
		outer?.addEventListener('abort', this.onOuterAbort, { once: true });
		const first = this.nextCheck(this.startedAt);
		if (first !== undefined) watchdog.watch(this, first);
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	headersReceived(): void {
		this.headers = true;
		this.lastActivity = Date.now();
	}

	/** Bytes (or the end) arrived. */
	activity(): void {
		this.lastActivity = Date.now();
	}

	/** A part goes to the consumer: limits wait until it asks for the next one. */
	pause(): void {
		this.firstPart = true;
		this.paused = true;
	}

	resume(): void {
		this.paused = false;
		this.lastActivity = Date.now();
	}

	/** Called by the watchdog when this attempt is due: aborts it if a limit ran out, else says when to look again. */
	check(now: number): number | undefined {
		if (this.disposed) return undefined;
		const expired = this.expired(now);
		if (!expired) return this.nextCheck(now);
		this.timedOut = expired;
		this.controller.abort();
		return undefined;
	}

	/** The limit that has run out at `now`, if any. */
	private expired(now: number): { phase: ChatTimeoutPhase; timeoutMs: number } | undefined {
		const { firstTokenTimeoutMs } = this.limits;
		if (firstTokenTimeoutMs > 0 && !this.firstPart && now - this.startedAt >= firstTokenTimeoutMs) return { phase: 'first-token', timeoutMs: firstTokenTimeoutMs };
		const inactivity = this.inactivityLimit();
		if (!this.paused && inactivity.timeoutMs > 0 && now - this.lastActivity >= inactivity.timeoutMs) return inactivity;
		return undefined;
	}

	private inactivityLimit(): { phase: ChatTimeoutPhase; timeoutMs: number } {
		const { timeoutMs, stallTimeoutMs } = this.limits;
		if (!this.headers) return { phase: 'response', timeoutMs };
		if (this.firstPart && stallTimeoutMs > 0) return { phase: 'stall', timeoutMs: stallTimeoutMs };
		return { phase: 'stream', timeoutMs };
	}

	/** The earliest moment a limit could run out (epoch ms; `undefined` when no limit applies). */
	private nextCheck(now: number): number | undefined {
		let at = Infinity;
		const { firstTokenTimeoutMs, timeoutMs, stallTimeoutMs } = this.limits;
		if (firstTokenTimeoutMs > 0 && !this.firstPart) at = this.startedAt + firstTokenTimeoutMs;
		// The stall limit may differ from the response/stream one: take the shortest that may apply.
		const inactivity = timeoutMs > 0 && stallTimeoutMs > 0 ? Math.min(timeoutMs, stallTimeoutMs) : timeoutMs > 0 ? timeoutMs : stallTimeoutMs;
		if (inactivity > 0) at = Math.min(at, (this.paused ? now : this.lastActivity) + inactivity);
		return at === Infinity ? undefined : Math.max(at, now + 1);
	}

	/** Turns low-level failures into this package's errors; our own errors pass through. */
	translate(error: unknown, url: string): unknown {
		if (this.timedOut) return new ChatTimeoutError(this.timedOut.timeoutMs, this.timedOut.phase);
		if (this.outer?.aborted) return new ChatAbortedError({ cause: this.outer.reason });
		if (ToolbridgeError.isInstance(error)) return error;
		if (error instanceof Error) {
			const code = systemCodeOf(error);
			if (code !== undefined || /fetch failed|terminated|socket|network/i.test(error.message)) return new ChatConnectionError(url, code, { cause: error });
		}
		return error;
	}

	/** Ends the attempt (again: no effect); `abort` aborts its request, otherwise its controller goes to the next attempt. */
	dispose(abort: boolean): void {
		if (this.disposed) return;
		this.disposed = true;
		watchdog.unwatch(this);
		this.outer?.removeEventListener('abort', this.onOuterAbort);
		if (abort && !this.controller.signal.aborted) this.controller.abort();
		returnAbortController(this.controller);
	}
}

/** The low-level code (`ECONNRESET`, `UND_ERR_SOCKET` …) of a fetch failure, looking through `cause`. */
function systemCodeOf(error: Error): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && code !== 'ABORT_ERR' && code !== 'ERR_INVALID_STATE') return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

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
