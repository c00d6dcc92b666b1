import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hasValidBearerToken } from '../../src/http/bearer-token';
import { ConcurrencyLimit } from '../../src/http/concurrency-limit';
import { HttpError } from '../../src/http/http-error';
import { isAllowedOrigin } from '../../src/http/origin-check';
import { acquireSlot } from '../../src/http/request-guards';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('bearer token', () => {
	it.each([
		[{ authorization: 'Bearer s3cret' }, true],
		[{ authorization: 'bearer s3cret' }, true],
		[{ authorization: 'Bearer s3cre' }, false],
		[{ authorization: 'Bearer s3cret-and-more' }, false],
		[{ authorization: 's3cret' }, false],
		[{}, false],
	])('%j → %s', (headers, valid) => {
		expect(hasValidBearerToken(request(headers), 's3cret')).toBe(valid);
	});

	it('no token configured: every request passes', () => {
		expect(hasValidBearerToken(request({}), undefined)).toBe(true);
	});
});

describe('Origin', () => {
	it.each([
		[{}, '127.0.0.1', true],
		[{ origin: 'http://localhost:6274' }, '127.0.0.1', true],
		[{ origin: 'http://127.0.0.1:3000' }, '::1', true],
		[{ origin: 'https://evil.example' }, '127.0.0.1', false],
		[{ origin: 'http://localhost:6274' }, '0.0.0.0', false],
		[{ origin: 'null' }, '127.0.0.1', false],
		[{ origin: 'https://app.example' }, '0.0.0.0', false],
	])('%j on %s → %s', (headers, serverHost, allowed) => {
		expect(isAllowedOrigin(request(headers), { serverHost })).toBe(allowed);
	});

	it('listed origins pass', () => {
		expect(
			isAllowedOrigin(request({ origin: 'https://app.example' }), {
				serverHost: '0.0.0.0',
				allowedOrigins: ['https://app.example'],
			}),
		).toBe(true);
	});
});

describe('concurrency limit', () => {
	it('refuses beyond max with 429 and Retry-After; a slot comes back once', () => {
		const limit = new ConcurrencyLimit(1);
		const release = acquireSlot(limit);
		let refused: unknown;
		try {
			acquireSlot(limit);
		} catch (error) {
			refused = error;
		}
		expect(refused).toBeInstanceOf(HttpError);
		expect(refused).toMatchObject({ status: 429, headers: { 'Retry-After': '1' } });
		release();
		release();
		expect(limit.inFlight).toBe(0);
		expect(limit.tryAcquire()).toBeTypeOf('function');
		expect(limit.tryAcquire()).toBeUndefined();
	});
});
