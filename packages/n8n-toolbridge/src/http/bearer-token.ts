import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Checks `Authorization: Bearer <token>` in constant time: both sides are hashed to the same
 * length first, so neither the content nor the length of the token leaks through timing.
 * Without a configured token every request passes.
 */
export function hasValidBearerToken(request: IncomingMessage, token: string | undefined): boolean {
	if (token === undefined || token === '') return true;
	const header = request.headers.authorization ?? '';
	const match = /^Bearer\s+(.+)$/i.exec(header);
	const given = createHash('sha256')
		.update(match ? match[1].trim() : '')
		.digest();
	const expected = createHash('sha256').update(token).digest();
	return timingSafeEqual(given, expected) && match !== null;
}
