/** The chat client's time limits for one call, in ms; 0 = no such limit. */
export interface ChatTimeLimits {
	/** Longest wait for the response headers, and then between two reads before the first token. */
	timeoutMs: number;
	/** Longest wait from sending the request to the first part (keep-alive comments do not count). */
	firstTokenTimeoutMs: number;
	/** Once the first part arrived: longest time without any bytes. */
	stallTimeoutMs: number;
	/**
	 * Longest time the whole call may take, retries and the waits between them included,
	 * however steadily bytes arrive (a server trickling keep-alive comments is cut off too).
	 */
	totalTimeoutMs: number;
}

/**
 * The limits a call gets for the options it leaves out: response 300 s, first token 60 s,
 * stall 30 s, total 300 s.
 */
export const defaultChatTimeLimits: Readonly<ChatTimeLimits> = Object.freeze({
	timeoutMs: 300_000,
	firstTokenTimeoutMs: 60_000,
	stallTimeoutMs: 30_000,
	totalTimeoutMs: 300_000,
});

/**
 * The limits a call runs with: each given option, else its default. 0 (or any value that is
 * not a positive number) switches that limit off.
 */
export function resolveChatTimeLimits(options: Partial<ChatTimeLimits>): ChatTimeLimits {
	const pick = (given: number | undefined, fallback: number): number => {
		const value = given ?? fallback;
		return value > 0 ? value : 0;
	};
	return {
		timeoutMs: pick(options.timeoutMs, defaultChatTimeLimits.timeoutMs),
		firstTokenTimeoutMs: pick(options.firstTokenTimeoutMs, defaultChatTimeLimits.firstTokenTimeoutMs),
		stallTimeoutMs: pick(options.stallTimeoutMs, defaultChatTimeLimits.stallTimeoutMs),
		totalTimeoutMs: pick(options.totalTimeoutMs, defaultChatTimeLimits.totalTimeoutMs),
	};
}
