import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';
import { DEFAULT_MAX_JSON_DEPTH, jsonNestingDepth } from './json-nesting-depth';

/** Default cap on a request body: 1 MiB (tool arguments and chat messages are small). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Default time a client has to send its whole body: 30 s (1 MiB at 35 KB/s). */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/**
 * A refused body declared (`Content-Length`) at most this size is still read and dropped after
 * the 413: a client that sends its whole body before it reads the answer (fetch, the `openai`
 * client, most HTTP clients) would otherwise see a connection reset instead of the 413 — and
 * retry the upload. Larger ones are never read and the connection closes.
 */
export const MAX_DRAINED_BODY_BYTES = 64 * 1024 * 1024;

/** Options of {@link readJsonBody}. */
export interface ReadJsonBodyOptions {
	/** Time the whole body may take to arrive (ms). Default {@link DEFAULT_BODY_TIMEOUT_MS}. */
	timeoutMs?: number;
	/**
	 * How long a refused body (declared at most {@link MAX_DRAINED_BODY_BYTES}) is read and
	 * dropped before the connection closes anyway (ms). Default: `timeoutMs`.
	 */
	lingerMs?: number;
	/** How deep the JSON may nest arrays and objects. Default {@link DEFAULT_MAX_JSON_DEPTH}. */
	maxDepth?: number;
}

/**
 * Reads a request body as JSON, refusing more than `maxBytes` as soon as it is exceeded
 * (the declared `Content-Length` is checked before reading), a body not complete within
 * `timeoutMs` (a client that trickles its body) and JSON nested deeper than `maxDepth`. Read
 * the body before taking a concurrency slot, so that slow senders hold none. A refused body
 * declared at most {@link MAX_DRAINED_BODY_BYTES} is read and dropped (for at most
 * `lingerMs`) so that its sender reads the 413; a larger or chunked one is never read.
 *
 * @throws {HttpError} 413 when the body is too large, 408 (with `Connection: close`) when it
 * takes too long, 400 when it is not JSON (`invalid_json`) or nests too deep (`json_too_deep`).
 */
export async function readJsonBody(
	request: IncomingMessage,
	maxBytes = DEFAULT_MAX_BODY_BYTES,
	options: ReadJsonBodyOptions = {},
): Promise<unknown> {
	const timeoutMs = options.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
	const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
	const tooLarge = (closeConnection: boolean) =>
		new HttpError(
			413,
			`The request body is larger than ${maxBytes} bytes.`,
			'request_too_large',
			closeConnection ? { Connection: 'close' } : {},
		);
	const declared = Number(request.headers['content-length'] ?? 0);
	if (declared > maxBytes) {
		if (declared > MAX_DRAINED_BODY_BYTES) throw tooLarge(true);
		drainAtMost(request, options.lingerMs ?? timeoutMs);
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
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch (error) {
		throw new HttpError(
			400,
			`The request body is not valid JSON: ${(error as Error).message}`,
			'invalid_json',
		);
	}
	// JSON.parse copes with any depth; the recursive walks after it (JSON.stringify, clones,
	// schema validation) overflow the stack from a few thousand levels.
	if (jsonNestingDepth(text, maxDepth) > maxDepth) {
		throw new HttpError(
			400,
			`The request body nests arrays and objects more than ${maxDepth} levels deep; the limit is ${maxDepth} levels.`,
			'json_too_deep',
		);
	}
	return body;
}

/**
 * Reads and drops the request's body, so that the client can finish sending it and read the
 * answer on a connection that stays open; destroys the connection unless the body has ended
 * within `ms`.
 */
function drainAtMost(request: IncomingMessage, ms: number): void {
	const timer = setTimeout(() => request.socket.destroy(), ms).unref();
	const done = () => clearTimeout(timer);
	request.once('end', done).once('close', done);
	request.resume();
}
