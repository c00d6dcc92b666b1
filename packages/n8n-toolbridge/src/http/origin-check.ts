import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from './listen-address';

/**
 * The Origin rule of the MCP Streamable HTTP transport (against DNS rebinding): a request
 * without `Origin` (not from a browser) passes; a browser origin passes when it is listed
 * in `allowedOrigins`, or when it is a loopback origin and the server itself listens on
 * loopback. Everything else is refused with 403.
 */
export function isAllowedOrigin(
	request: IncomingMessage,
	options: { allowedOrigins?: readonly string[]; serverHost: string },
): boolean {
	const origin = request.headers.origin;
	if (origin === undefined || origin === '') return true;
	if (options.allowedOrigins?.includes(origin)) return true;
	let hostname: string;
	try {
		hostname = new URL(origin).hostname;
	} catch {
		return false;
	}
	return isLoopbackHost(options.serverHost) && isLoopbackHost(hostname);
}
