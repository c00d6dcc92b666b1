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
	return resolveTimeLimits(options, defaultChatTimeLimits);
}

/**
 * Each limit of `defaults`, taken from `options` when given there. 0 (or any value that is not
 * a positive number) switches that limit off. Shared by the chat client's and the loop's limits.
 */
export function resolveTimeLimits<Limits extends { [Name in keyof Limits]: number }>(
	options: Partial<Limits>,
	defaults: Readonly<Limits>,
): Limits {
	const given = options as Partial<Record<string, number>>;
	const limits: Record<string, number> = {};
	for (const [name, fallback] of Object.entries(defaults as Record<string, number>)) {
		const value = (Object.hasOwn(given, name) ? given[name] : undefined) ?? fallback;
		limits[name] = value > 0 ? value : 0;
	}
	return limits as unknown as Limits;
}
