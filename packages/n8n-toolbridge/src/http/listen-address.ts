import { isIP } from 'node:net';
import { ServerConfigurationError } from '../errors/server-configuration-error';

/** Where a server listens. */
export interface ListenAddress {
	host: string;
	port: number;
}

/** The default host: loopback only, so nothing outside this machine reaches the server. */
export const DEFAULT_HOST = '127.0.0.1';

/**
 * Parses `PORT`, `HOST:PORT` or `[IPv6]:PORT` (the `--http` value); the host defaults to
 * 127.0.0.1. Port 0 asks the system for a free port.
 *
 * @throws {ServerConfigurationError} when the port is not an integer 0–65535 or the host is empty.
 */
export function parseListenAddress(value: string, defaultHost = DEFAULT_HOST): ListenAddress {
	const match = /^(?:\[([^\]]+)\]:|([^:]*):)?(\d+)$/.exec(value.trim());
	const port = match ? Number(match[3]) : Number.NaN;
	if (!match || !Number.isInteger(port) || port > 65_535) {
		throw new ServerConfigurationError(
			`"${value}" is not [HOST:]PORT: expected e.g. 8080, 127.0.0.1:8080 or [::1]:8080.`,
		);
	}
	const host = match[1] ?? match[2] ?? defaultHost;
	if (host === '')
		throw new ServerConfigurationError(
			`"${value}" has an empty host: write PORT alone for ${defaultHost}.`,
		);
	return { host, port };
}

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1, `localhost`. */
export function isLoopbackHost(host: string): boolean {
	const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
	if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
	if (isIP(bare) === 4) return bare.startsWith('127.');
	if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./i.test(bare);
	return false;
}

/**
 * Refuses to serve beyond this machine without authentication.
 * @throws {ServerConfigurationError} for a non-loopback host without a token.
 */
export function assertSafeBinding(
	address: ListenAddress,
	token: string | undefined,
	command: string,
): void {
	if (isLoopbackHost(address.host) || (token !== undefined && token !== '')) return;
	throw new ServerConfigurationError(
		`Refusing to listen on ${address.host} without a token: anyone who can reach it could run the workflow's tools. ` +
			`Give --token T (or TOOLBRIDGE_TOKEN) so clients must send "Authorization: Bearer T", or listen on 127.0.0.1 (${command}).`,
	);
}
