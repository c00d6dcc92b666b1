import { describe, expect, it } from 'vitest';
import { ServerConfigurationError } from '../../src/errors/server-configuration-error';
import {
	assertSafeBinding,
	isLoopbackHost,
	parseListenAddress,
} from '../../src/http/listen-address';

describe('parseListenAddress', () => {
	it.each([
		['8080', { host: '127.0.0.1', port: 8080 }],
		['0', { host: '127.0.0.1', port: 0 }],
		['0.0.0.0:9000', { host: '0.0.0.0', port: 9000 }],
		['localhost:80', { host: 'localhost', port: 80 }],
		['[::1]:3000', { host: '::1', port: 3000 }],
	])('%s', (value, expected) => {
		expect(parseListenAddress(value)).toEqual(expected);
	});

	it.each(['', 'abc', '70000', ':8080', 'host:', '1.2.3.4:-1'])(
		'%j is a ServerConfigurationError',
		(value) => {
			expect(() => parseListenAddress(value)).toThrow(ServerConfigurationError);
		},
	);
});

describe('binding rules', () => {
	it.each([
		['127.0.0.1', true],
		['127.0.0.2', true],
		['::1', true],
		['[::1]', true],
		['localhost', true],
		['0.0.0.0', false],
		['::', false],
		['192.168.1.10', false],
		['example.com', false],
	])('%s loopback: %s', (host, loopback) => {
		expect(isLoopbackHost(host)).toBe(loopback);
	});

	it('a non-loopback host needs a token; loopback does not', () => {
		expect(() => assertSafeBinding({ host: '0.0.0.0', port: 1 }, undefined, 'x')).toThrow(
			/Refusing to listen on 0\.0\.0\.0 without a token/,
		);
		expect(() => assertSafeBinding({ host: '0.0.0.0', port: 1 }, 't', 'x')).not.toThrow();
		expect(() => assertSafeBinding({ host: '127.0.0.1', port: 1 }, undefined, 'x')).not.toThrow();
	});
});
