import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

/** Default cap on a request body: 1 MiB (tool arguments and chat messages are small). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Default time a client has to send its whole body: 10 s. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** Options of {@link readJsonBody}. */
export interface ReadJsonBodyOptions {
	/** Time the whole body may take to arrive, from the first read (ms). Default 10 s; 0: none. */
	timeoutMs?: number;
}

/**
 * Reads a request body as JSON, refusing more than `maxBytes` as soon as it is exceeded
 * (the declared `Content-Length` is checked before reading) and a body that takes longer
 * than `timeoutMs` to arrive (a client trickling bytes holds a connection, never longer).
 * Read bodies before taking a concurrency slot, so slow senders cannot hold the slots.
 *
 * @throws {HttpError} 413 when the body is too large, 408 when it is too slow, 400 when it is not JSON.
 */
export async function readJsonBody(
	request: IncomingMessage,
	maxBytes = DEFAULT_MAX_BODY_BYTES,
	options: ReadJsonBodyOptions = {},
): Promise<unknown> {
	const tooLarge = () =>
		new HttpError(413, `The request body is larger than ${maxBytes} bytes.`, 'request_too_large', {
			Connection: 'close',
		});
	if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
	const timeoutMs = options.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
	const text = await new Promise<string>((resolve, reject) => {
		const pieces: Buffer[] = [];
		let size = 0;
		const finish = (error?: HttpError): void => {
			clearTimeout(timer);
			request.off('data', onData);
			request.off('end', onEnd);
			request.off('error', onError);
			if (error) {
				// Stop reading; the answer closes the connection.
				request.pause();
				reject(error);
			} else resolve(Buffer.concat(pieces).toString('utf8'));
		};
		const onData = (piece: Buffer): void => {
			size += piece.length;
			if (size > maxBytes) finish(tooLarge());
			else pieces.push(piece);
		};
		const onEnd = (): void => finish();
		const onError = (): void =>
			finish(new HttpError(400, 'The request body could not be read.', 'invalid_body'));
		const timer =
			timeoutMs > 0
				? setTimeout(
						() =>
							finish(
								new HttpError(
									408,
									`The request body did not arrive within ${timeoutMs / 1000} s.`,
									'request_timeout',
									{ Connection: 'close' },
								),
							),
						timeoutMs,
					)
				: undefined;
		request.on('data', onData);
		request.once('end', onEnd);
		request.once('error', onError);
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
