import type { IncomingMessage } from 'node:http';
import { hasValidBearerToken } from './bearer-token';
import type { ConcurrencyLimit } from './concurrency-limit';
import { HttpError } from './http-error';
import { isAllowedOrigin } from './origin-check';

/** What both servers check before a request reaches its handler. */
export interface RequestGuardOptions {
	/** Required bearer token (`--token` / `TOOLBRIDGE_TOKEN`); none: no authentication. */
	token?: string;
	/** Browser origins allowed besides loopback ones (when the server listens on loopback). */
	allowedOrigins?: readonly string[];
	/** The host the server listens on. */
	serverHost: string;
}

/**
 * Origin (403, against DNS rebinding, as the MCP transport spec requires) then the bearer
 * token (401).
 * @throws {HttpError} 403 or 401.
 */
export function checkRequest(request: IncomingMessage, options: RequestGuardOptions): void {
	if (
		!isAllowedOrigin(request, {
			allowedOrigins: options.allowedOrigins,
			serverHost: options.serverHost,
		})
	) {
		throw new HttpError(
			403,
			`Origin ${request.headers.origin} is not allowed.`,
			'forbidden_origin',
		);
	}
	if (!hasValidBearerToken(request, options.token)) {
		throw new HttpError(
			401,
			'Missing or wrong bearer token: send "Authorization: Bearer <token>".',
			'invalid_token',
			{ 'WWW-Authenticate': 'Bearer' },
		);
	}
}

/** Seconds a client is told to wait when every slot is taken. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * Takes `count` slots of `limit` (one per unit of work the request carries).
 * @throws {HttpError} 429 with Retry-After when not that many are free.
 */
export function acquireSlot(limit: ConcurrencyLimit, count = 1): () => void {
	const release = limit.tryAcquire(count);
	if (!release) {
		throw new HttpError(
			429,
			count > limit.max
				? `This request carries ${count} calls, more than the server runs at once (limit ${limit.max}); send fewer.`
				: `Too many requests in progress (limit ${limit.max}); retry shortly.`,
			'rate_limit_exceeded',
			{ 'Retry-After': String(RETRY_AFTER_SECONDS) },
		);
	}
	return release;
}
