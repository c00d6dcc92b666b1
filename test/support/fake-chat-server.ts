/**
 * A loopback fake of an OpenAI-compatible / OpenRouter Chat Completions server, speaking
 * the real SSE wire format. Used by the chat, agent, e2e and bench tests, from vitest and
 * from plain `tsx` scripts (it imports nothing from vitest).
 *
 * ```ts
 * const server = await startFakeChatServer({
 *   respond: ({ index }) => (index === 0 ? toolCallReply([{ name: 'add', arguments: { a: 1 } }]) : textReply('Done.')),
 * });
 * // server.baseUrl ends with /v1; POST {baseUrl}/chat/completions
 * await server.close();
 * ```
 *
 * It listens on 127.0.0.1 only, on a free port. Every request to any path is recorded in
 * `requests` (body parsed as JSON when possible) and answered by `respond`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the fake received. Header names are lower-case. */
export interface FakeRequest {
	/** The parsed JSON body (the raw text when it is not JSON). */
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary request fields
	headers: Record<string, string>;
	/** 0 for the first request this server received. */
	index: number;
	method: string;
	/** Path and query, e.g. `/v1/chat/completions`. */
	path: string;
	/** Resolves when the client's connection for this request has closed (e.g. after an abort). */
	closed: Promise<void>;
}

/** How the fake answers one request. */
export interface FakeReply {
	/** HTTP status (default 200, or 500 when `errorBody` is set). */
	status?: number;
	headers?: Record<string, string>;
	/** Each is sent as one `data: <json>` event, then `data: [DONE]` (unless `omitDone`). */
	chunks?: object[];
	/** Sent as the JSON body of an error response, e.g. `{ error: { code: 401, message: '…' } }`. */
	errorBody?: object | string;
	/** Sent as a JSON body (`Content-Type: application/json`, status 200 unless `status` says otherwise). */
	json?: object;
	/** Sent as the whole response body, as is (after `chunks`, if both are given). */
	rawSse?: string;
	/** Write this many chunks, then keep the connection open without sending anything. */
	stallAfterChunks?: number;
	/** Wait this long before each chunk. */
	chunkDelayMs?: number;
	/** Destroy the socket (a connection reset) once headers, comments and this many chunks were sent. */
	resetAfterChunks?: number;
	/** Destroy the socket without sending any response (a reset before the first byte). */
	resetBeforeResponse?: boolean;
	/** Send `: OPENROUTER PROCESSING` comment lines before the first chunk (default 0). */
	processingComments?: number;
	/**
	 * After the chunks, send a `: keep-alive` comment every this many ms and never finish, until
	 * the client goes away or the server closes: a stream that never ends but never goes quiet.
	 */
	trickleEveryMs?: number;
	/** Do not send the final `data: [DONE]`. */
	omitDone?: boolean;
	/** Sent after `data: [DONE]`, before the body ends (a server that goes on after it). */
	afterDone?: string;
	/** After `data: [DONE]` (and `afterDone`), keep the connection open instead of ending the body. */
	stallAfterDone?: boolean;
}

export interface FakeChatServerOptions {
	respond: (request: FakeRequest) => FakeReply | Promise<FakeReply>;
}

export interface FakeChatServer {
	/** `http://127.0.0.1:<port>/v1` */
	baseUrl: string;
	/** Every request received, in order. */
	requests: FakeRequest[];
	/** Stops listening and drops open connections (stalled streams included). */
	close(): Promise<void>;
	/** Closes the keep-alive connections that wait for a next request (a soak bench measures without the pool). */
	closeIdleConnections(): void;
}

/**
 * Starts the fake on 127.0.0.1 with a free port.
 * @throws when the port cannot be bound
 */
export async function startFakeChatServer(options: FakeChatServerOptions): Promise<FakeChatServer> {
	const requests: FakeRequest[] = [];
	const sockets = new Set<Socket>();
	const server = createServer((request, response) => {
		void handle(request, response).catch((error: unknown) => {
			if (!response.headersSent) {
				response.writeHead(500, { 'Content-Type': 'application/json' });
				response.end(
					JSON.stringify({
						error: {
							code: 500,
							message: `fake chat server: ${error instanceof Error ? error.message : String(error)}`,
						},
					}),
				);
			} else response.destroy();
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const pieces: Buffer[] = [];
		for await (const piece of request) pieces.push(piece as Buffer);
		const text = Buffer.concat(pieces).toString('utf8');
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// Keep the raw text; a test may send non-JSON on purpose.
		}
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(request.headers)) {
			if (value !== undefined)
				headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
		}
		const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
		const recorded: FakeRequest = {
			body,
			headers,
			index: requests.length,
			method: request.method ?? 'GET',
			path: request.url ?? '/',
			closed,
		};
		requests.push(recorded);
		const reply = await options.respond(recorded);
		await sendReply(reply, response);
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
		closeIdleConnections: () => server.closeIdleConnections(),
	};
}

async function sendReply(reply: FakeReply, response: ServerResponse): Promise<void> {
	if (reply.resetBeforeResponse) {
		response.socket?.destroy();
		return;
	}
	if (reply.json !== undefined) {
		response.writeHead(reply.status ?? 200, {
			'Content-Type': 'application/json',
			...reply.headers,
		});
		response.end(JSON.stringify(reply.json));
		return;
	}
	if (reply.errorBody !== undefined) {
		const body =
			typeof reply.errorBody === 'string' ? reply.errorBody : JSON.stringify(reply.errorBody);
		response.writeHead(reply.status ?? 500, {
			'Content-Type': 'application/json',
			...reply.headers,
		});
		response.end(body);
		return;
	}
	response.writeHead(reply.status ?? 200, {
		'Content-Type': 'text/event-stream',
		'Cache-Control': 'no-cache',
		Connection: 'keep-alive',
		...reply.headers,
	});
	response.flushHeaders();
	for (let comment = 0; comment < (reply.processingComments ?? 0); comment++)
		await write(response, ': OPENROUTER PROCESSING\n\n');
	const chunks = reply.chunks ?? [];
	for (let position = 0; position <= chunks.length; position++) {
		if (reply.stallAfterChunks === position) return; // keep the socket open; close() drops it
		if (reply.resetAfterChunks === position) {
			response.socket?.destroy();
			return;
		}
		if (position === chunks.length) break;
		if (reply.chunkDelayMs) await delay(reply.chunkDelayMs);
		if (response.destroyed) return;
		await write(response, `data: ${JSON.stringify(chunks[position])}\n\n`);
	}
	if (reply.trickleEveryMs !== undefined) {
		while (!response.destroyed) {
			await delay(reply.trickleEveryMs);
			await write(response, ': keep-alive\n\n');
		}
		return;
	}
	if (reply.rawSse !== undefined) await write(response, reply.rawSse);
	if (reply.chunks && !reply.omitDone) await write(response, 'data: [DONE]\n\n');
	if (reply.afterDone !== undefined) await write(response, reply.afterDone);
	if (reply.stallAfterDone) return; // keep the socket open; close() drops it
	response.end();
}

/** Writes and waits until the data is handed to the socket (so a later reset cannot swallow it). */
function write(response: ServerResponse, text: string): Promise<void> {
	return new Promise((resolve) => {
		if (response.destroyed) return resolve();
		response.write(text, () => resolve());
	});
}

function delay(milliseconds: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Options shared by the reply builders. */
export interface ReplyOptions {
	/** Reported in every chunk (default `fake/model`). */
	model?: string;
	/** Completion id (default `gen-fake-1`). */
	id?: string;
	/** Characters per content/argument delta (default 8). */
	deltaSize?: number;
	/** Usage in the last chunk (default: small counts with a `cost`); `null` sends none. */
	usage?: object | null;
	/** Overrides the finish reason. */
	finishReason?: string;
	/** Extra reply fields (status, headers, delays, stalls …). */
	reply?: Omit<FakeReply, 'chunks'>;
}

function split(text: string, size: number): string[] {
	const pieces: string[] = [];
	for (let start = 0; start < text.length; start += size)
		pieces.push(text.slice(start, start + size));
	return pieces;
}

function frame(
	options: ReplyOptions,
): (delta: object | null, finishReason?: string | null) => object {
	const id = options.id ?? 'gen-fake-1';
	const model = options.model ?? 'fake/model';
	return (delta, finishReason = null) => ({
		id,
		provider: 'Fake',
		model,
		object: 'chat.completion.chunk',
		created: 1_750_000_000,
		choices: [
			{
				index: 0,
				delta: delta ?? {},
				finish_reason: finishReason,
				native_finish_reason: finishReason,
				logprobs: null,
			},
		],
	});
}

function usageChunk(options: ReplyOptions, completionText: string): object[] {
	if (options.usage === null) return [];
	const completionTokens = Math.max(1, Math.ceil(completionText.length / 4));
	const usage = options.usage ?? {
		prompt_tokens: 12,
		completion_tokens: completionTokens,
		total_tokens: 12 + completionTokens,
		cost: 0.000042,
		prompt_tokens_details: { cached_tokens: 0 },
		completion_tokens_details: { reasoning_tokens: 0 },
	};
	return [
		{
			id: options.id ?? 'gen-fake-1',
			provider: 'Fake',
			model: options.model ?? 'fake/model',
			object: 'chat.completion.chunk',
			created: 1_750_000_000,
			choices: [],
			usage,
		},
	];
}

/**
 * A plain text answer as OpenRouter streams it: a role delta, content deltas, a chunk with
 * `finish_reason: "stop"`, then a usage chunk with `choices: []`.
 */
export function textReply(text: string, options: ReplyOptions = {}): FakeReply {
	const make = frame(options);
	const chunks = [
		make({ role: 'assistant', content: '' }),
		...split(text, options.deltaSize ?? 8).map((piece) =>
			make({ role: 'assistant', content: piece }),
		),
		make({ role: 'assistant', content: '' }, options.finishReason ?? 'stop'),
		...usageChunk(options, text),
	];
	return { ...options.reply, chunks };
}

/** One call for {@link toolCallReply}; an object `arguments` is JSON-encoded, a string sent as is. */
export interface FakeToolCall {
	id?: string;
	name: string;
	arguments: object | string;
}

/**
 * Tool calls as OpenAI/OpenRouter stream them: per call a first delta with `index`, `id`,
 * `type` and `function.name` (empty arguments), then argument deltas carrying only the
 * index; `finish_reason: "tool_calls"`; then usage. `text` optionally precedes the calls.
 */
export function toolCallReply(
	calls: FakeToolCall[],
	options: ReplyOptions & { text?: string } = {},
): FakeReply {
	const make = frame(options);
	const chunks: object[] = [make({ role: 'assistant', content: '' })];
	if (options.text)
		for (const piece of split(options.text, options.deltaSize ?? 8))
			chunks.push(make({ role: 'assistant', content: piece }));
	let allArguments = '';
	calls.forEach((call, index) => {
		const argumentsText =
			typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
		allArguments += argumentsText;
		const id = call.id ?? `call_fake_${index + 1}`;
		chunks.push(
			make({
				role: 'assistant',
				content: null,
				tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }],
			}),
		);
		for (const piece of split(argumentsText, options.deltaSize ?? 8)) {
			chunks.push(
				make({
					role: 'assistant',
					content: null,
					tool_calls: [{ index, function: { arguments: piece } }],
				}),
			);
		}
	});
	chunks.push(make({ role: 'assistant', content: null }, options.finishReason ?? 'tool_calls'));
	chunks.push(...usageChunk(options, allArguments));
	return { ...options.reply, chunks };
}

/**
 * A reasoning model's answer: each reasoning delta carries both `reasoning` and a
 * `reasoning_details` entry (`reasoning.text`, index 0; the last one with a `signature`),
 * as OpenRouter sends them; then the text answer, `finish_reason: "stop"`, usage.
 */
export function reasoningReply(
	reasoning: string,
	text: string,
	options: ReplyOptions & { signature?: string } = {},
): FakeReply {
	const make = frame(options);
	const pieces = split(reasoning, options.deltaSize ?? 8);
	const chunks: object[] = [make({ role: 'assistant', content: '' })];
	pieces.forEach((piece, position) => {
		const detail: Record<string, unknown> = {
			type: 'reasoning.text',
			text: piece,
			format: 'anthropic-claude-v1',
			index: 0,
		};
		if (position === pieces.length - 1) detail.signature = options.signature ?? 'sig-fake';
		chunks.push(
			make({ role: 'assistant', content: '', reasoning: piece, reasoning_details: [detail] }),
		);
	});
	for (const piece of split(text, options.deltaSize ?? 8))
		chunks.push(make({ role: 'assistant', content: piece }));
	chunks.push(make({ role: 'assistant', content: '' }, options.finishReason ?? 'stop'));
	chunks.push(...usageChunk(options, reasoning + text));
	return { ...options.reply, chunks };
}

/** An HTTP error answer in OpenRouter's shape `{"error":{"code","message"}}`. */
export function errorReply(
	status: number,
	message: string,
	headers?: Record<string, string>,
): FakeReply {
	return { status, headers, errorBody: { error: { code: status, message } } };
}
