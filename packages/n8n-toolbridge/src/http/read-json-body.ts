import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

/** Default cap on a request body: 1 MiB (tool arguments and chat messages are small). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a request body as JSON, refusing more than `maxBytes` as soon as it is exceeded
 * (the declared `Content-Length` is checked before reading).
 *
 * @throws {HttpError} 413 when the body is too large, 400 when it is not JSON.
 */
export async function readJsonBody(
	request: IncomingMessage,
	maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<unknown> {
	const tooLarge = () =>
		new HttpError(413, `The request body is larger than ${maxBytes} bytes.`, 'request_too_large');
	if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
	const pieces: Buffer[] = [];
	let size = 0;
	for await (const piece of request) {
		size += (piece as Buffer).length;
		if (size > maxBytes) throw tooLarge();
		pieces.push(piece as Buffer);
	}
	const text = Buffer.concat(pieces).toString('utf8');
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new HttpError(
			400,
			`The request body is not valid JSON: ${(error as Error).message}`,
			'invalid_json',
		);
	}
}
