import { ChatConnectionError } from '../../errors/chat-connection-error';

/**
 * A fetch or body-read failure that means the connection failed or broke (it carries a
 * low-level code such as `ECONNRESET`, or undici's "fetch failed" / "terminated") as a
 * {@link ChatConnectionError}; `undefined` for anything else.
 */
export function connectionErrorFrom(error: unknown, url: string): ChatConnectionError | undefined {
	if (!(error instanceof Error)) return undefined;
	const code = systemCodeOf(error);
	if (code !== undefined || /fetch failed|terminated|socket|network/i.test(error.message))
		return new ChatConnectionError(url, code, { cause: error });
	return undefined;
}

/** The low-level code (`ECONNRESET`, `UND_ERR_SOCKET` …) of a fetch failure, looking through `cause`. */
function systemCodeOf(error: Error): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && code !== 'ABORT_ERR' && code !== 'ERR_INVALID_STATE')
			return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}
