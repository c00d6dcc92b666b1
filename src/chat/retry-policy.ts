/** How {@link streamChat} retries a request that failed before any part was yielded. */
export interface RetryOptions {
	/** Retries after the first attempt (default 2; 0 turns retrying off). */
	maxRetries: number;
	/** Delay before the first retry, doubled each time, with jitter (default 500). */
	baseDelayMs: number;
	/** Upper bound for a computed delay (default 8000). */
	maxDelayMs: number;
	/** Upper bound for a server's `Retry-After` (default 60000); longer waits are cut to it. */
	maxRetryAfterMs?: number;
}

/** The defaults of {@link RetryOptions}. */
export const defaultRetryOptions: Readonly<Required<RetryOptions>> = {
	maxRetries: 2,
	baseDelayMs: 500,
	maxDelayMs: 8000,
	maxRetryAfterMs: 60_000,
};

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into milliseconds from `now`.
 * Returns `undefined` when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(
	value: string | null | undefined,
	now = Date.now(),
): number | undefined {
	if (value === null || value === undefined) return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/**
 * The delay before retry number `attempt` (0-based): the server's `Retry-After` when it
 * sent one (capped at `maxRetryAfterMs`), else exponential backoff with full jitter in
 * the upper half: `min(maxDelayMs, baseDelayMs·2^attempt) · (0.5 … 1)`.
 */
export function retryDelayMs(
	attempt: number,
	options: RetryOptions,
	retryAfterMs?: number,
	random = Math.random,
): number {
	if (retryAfterMs !== undefined)
		return Math.min(retryAfterMs, options.maxRetryAfterMs ?? defaultRetryOptions.maxRetryAfterMs);
	const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
	return Math.round(exponential * (0.5 + random() * 0.5));
}
