import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

/** Default cap on a request body: 1 MiB (tool arguments and chat messages are small). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Default time a client has to send its whole body: 30 s (1 MiB at 35 KB/s). */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/**
 * A body declared at most this many times the cap is still read (and dropped) after the 413,
 * for at most {@link LINGER_MS}: a client that sends its whole body before reading the answer
 * (fetch, most HTTP clients) would otherwise get a connection reset instead of the 413.
 */
const LINGER_FACTOR = 4;

/** How long a refused body is read and dropped before the connection is closed anyway. */
const LINGER_MS = 5_000;

/** Options of {@link readJsonBody}. */
export interface ReadJsonBodyOptions {
	/** Time the whole body may take to arrive (ms). Default {@link DEFAULT_BODY_TIMEOUT_MS}. */
	timeoutMs?: number;
	/** How long a refused body (declared ≤ 4× the cap) is dropped before the connection closes (ms). Default 5 s. */
	lingerMs?: number;
}

/**
 * Reads a request body as JSON, refusing more than `maxBytes` as soon as it is exceeded
 * (the declared `Content-Length` is checked before reading) and a body not complete within
 * `timeoutMs` (a client that trickles its body). Read the body before taking a concurrency
 * slot, so that slow senders hold none. A refused body is not read, except one declared at
 * most 4× the cap, which is dropped for up to 5 s so that its sender reads the 413.
 *
 * @throws {HttpError} 413 when the body is too large, 408 (with `Connection: close`) when it
 * takes too long, 400 when it is not JSON.
 */
export async function readJsonBody(
	request: IncomingMessage,
	maxBytes = DEFAULT_MAX_BODY_BYTES,
	options: ReadJsonBodyOptions = {},
): Promise<unknown> {
	const timeoutMs = options.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
	const tooLarge = (closeConnection: boolean) =>
		new HttpError(
			413,
			`The request body is larger than ${maxBytes} bytes.`,
			'request_too_large',
			closeConnection ? { Connection: 'close' } : {},
		);
	const declared = Number(request.headers['content-length'] ?? 0);
	if (declared > maxBytes) {
		if (declared > maxBytes * LINGER_FACTOR) throw tooLarge(true);
		// Node drops a body nobody reads (the connection stays usable); bounded in time here.
		lingerAtMost(request, options.lingerMs ?? LINGER_MS);
		throw tooLarge(false);
	}
	// Other refusals end the connection after the answer: the rest of the body is never read.
	const text = await new Promise<string>((resolve, reject) => {
		const pieces: Buffer[] = [];
		let size = 0;
		const settle = (error?: unknown) => {
			clearTimeout(timer);
			request.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
			if (error === undefined) resolve(Buffer.concat(pieces).toString('utf8'));
			else {
				// Stop reading; the answer goes out and the connection closes after it.
				request.pause();
				reject(error);
			}
		};
		const onData = (piece: Buffer) => {
			size += piece.length;
			if (size > maxBytes) settle(tooLarge(true));
			else pieces.push(piece);
		};
		const onEnd = () => settle();
		const onClose = () =>
			settle(new HttpError(400, 'The client closed the connection mid-body.', 'client_closed'));
		const timer = setTimeout(
			() =>
				settle(
					new HttpError(
						408,
						`The request body did not arrive within ${timeoutMs / 1000} s.`,
						'request_timeout',
						{ Connection: 'close' },
					),
				),
			timeoutMs,
		);
		request.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose);
	});
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

/** Destroys the request's connection unless its body has ended within `ms`. */
function lingerAtMost(request: IncomingMessage, ms: number): void {
	const timer = setTimeout(() => request.socket.destroy(), ms).unref();
	const done = () => clearTimeout(timer);
	request.once('end', done).once('close', done);
}
