import { describe, expect, it } from 'vitest';
import { isRetryableError } from '../../src/chat/is-retryable-error';
import { parseRetryAfter, retryDelayMs } from '../../src/chat/retry-policy';
import { createApiCallError } from '../../src/errors/api-call-error';
import { ChatConnectionError } from '../../src/errors/chat-connection-error';

describe('parseRetryAfter', () => {
	const now = Date.parse('2025-06-01T12:00:00Z');
	it.each<[string | null | undefined, number | undefined]>([
		['2', 2000],
		['0', 0],
		['1.5', 1500],
		['Sun, 01 Jun 2025 12:00:30 GMT', 30_000],
		['Sun, 01 Jun 2025 11:00:00 GMT', 0],
		['soon', undefined],
		['', undefined],
		[null, undefined],
		[undefined, undefined],
	])('%j → %j', (value, expected) => {
		expect(parseRetryAfter(value, now)).toBe(expected);
	});
});

describe('retryDelayMs', () => {
	const options = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
	it('uses Retry-After, capped', () => {
		expect(retryDelayMs(0, options, 1200)).toBe(1200);
		expect(retryDelayMs(0, options, 60_000)).toBe(5000);
	});
	it('backs off exponentially with jitter in the upper half, capped at maxDelayMs', () => {
		expect(
			[0, 1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, options, undefined, () => 0)),
		).toEqual([50, 100, 200, 400, 500]);
		expect(
			[0, 1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, options, undefined, () => 1)),
		).toEqual([100, 200, 400, 800, 1000]);
	});
});

describe('isRetryableError', () => {
	it.each([
		[400, false],
		[401, false],
		[402, false],
		[408, false],
		[429, true],
		[500, false],
		[502, true],
		[503, true],
	])('HTTP %i → %s', (status, expected) => {
		expect(isRetryableError(createApiCallError({ status }))).toBe(expected);
	});
	it.each([
		['ECONNRESET', true],
		['UND_ERR_SOCKET', true],
		['ECONNREFUSED', false],
		['ENOTFOUND', false],
		[undefined, false],
	])('connection %s → %s', (code, expected) => {
		expect(isRetryableError(new ChatConnectionError('http://x', code))).toBe(expected);
	});
	it('other errors → false', () => {
		expect(isRetryableError(new Error('x'))).toBe(false);
	});
});
