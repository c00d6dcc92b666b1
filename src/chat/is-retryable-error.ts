import { ApiCallError } from '../errors/api-call-error';
import { ChatConnectionError } from '../errors/chat-connection-error';
import { ChatTimeoutError } from '../errors/chat-timeout-error';

const retryableStatuses = new Set([429, 502, 503]);
// Resets and sockets closed under us; a refused connection or a DNS failure is not retried.
const retryableConnectionCodes = new Set([
	'ECONNRESET',
	'EPIPE',
	'UND_ERR_SOCKET',
	'UND_ERR_CLOSED',
	'ECONNABORTED',
]);

/**
 * True when a request that failed BEFORE any output may be sent again: HTTP 429 / 502 /
 * 503, connection resets, and a stream that stalled (no first token within
 * `firstTokenTimeoutMs`, or no data for `stallTimeoutMs`). The caller must still check
 * that nothing was yielded (or, for a whole turn, that nothing was executed).
 */
export function isRetryableError(error: unknown): boolean {
	if (error instanceof ApiCallError) return retryableStatuses.has(error.status);
	if (error instanceof ChatTimeoutError)
		return error.phase === 'first-token' || error.phase === 'stall';
	if (error instanceof ChatConnectionError)
		return error.systemCode !== undefined && retryableConnectionCodes.has(error.systemCode);
	return false;
}
