/**
 * A fake of Amazon Bedrock's runtime Converse API, speaking its real wire format: a loopback
 * server (what an AWS credential's "Bedrock Runtime endpoint" override points at), and the same
 * replies as raw HTTP parts for nock (the default `bedrock-runtime.<region>.amazonaws.com`).
 *
 * As the AWS SDK (`@aws-sdk/client-bedrock-runtime`, restJson1) sends and reads it:
 * - `POST /model/{modelId}/converse` (one JSON answer) and `POST /model/{modelId}/converse-stream`
 *   (`application/vnd.amazon.eventstream`), the model id URL-encoded (`:` → `%3A`), the request
 *   SigV4-signed (`Authorization: AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/bedrock/…`);
 * - the stream is AWS event-stream binary framing (prelude with lengths and CRC32, headers,
 *   payload, message CRC32), encoded here with Smithy's own codec; each message has the headers
 *   `:message-type: event`, `:event-type: <member>`, `:content-type: application/json`, and as
 *   payload the member's JSON plus Bedrock's `p` padding field;
 * - events in Bedrock's order: `messageStart` (`role`), per content block — a text block has no
 *   start event, only `contentBlockDelta` (`delta.text`); a tool use has `contentBlockStart`
 *   (`start.toolUse`: `toolUseId`, `name`) then deltas of its input's JSON text
 *   (`delta.toolUse.input`) — and `contentBlockStop`; then `messageStop` (`stopReason`:
 *   `end_turn`, `tool_use`, `max_tokens` …) and `metadata` (`usage`: `inputTokens`,
 *   `outputTokens`, `totalTokens`; `metrics.latencyMs`);
 * - errors: the status, `x-amzn-ErrorType: <Exception>:…` and `{"message":"…"}`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

/** A content block of the assistant's message. */
export type BedrockBlock =
	| { text: string }
	| { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } };

/** One event of a Converse stream: the union member's name and its JSON. */
export interface BedrockEvent {
	type:
		| 'messageStart'
		| 'contentBlockStart'
		| 'contentBlockDelta'
		| 'contentBlockStop'
		| 'messageStop'
		| 'metadata';
	body: Record<string, unknown>;
}

export interface BedrockReplyOptions {
	/** Token counts (default 30 input, output from the content length). */
	usage?: { inputTokens: number; outputTokens: number };
	/** Default `tool_use` when a tool use is present, else `end_turn`. */
	stopReason?: string;
	/** Characters per delta (default 8). */
	deltaSize?: number;
}

/** What the fake received. Header names are lower-case. */
export interface BedrockRequest {
	method: string;
	/** As sent, e.g. `/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream`. */
	path: string;
	/** The model id, URL-decoded. */
	modelId: string;
	/** `converse` or `converse-stream`. */
	operation: string;
	headers: Record<string, string>;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary request fields
	body: any;
	index: number;
}

/** An HTTP answer: status, headers and the raw body. */
export interface BedrockHttpReply {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Pieces of `size` code points. */
function split(text: string, size: number): string[] {
	const points = Array.from(text);
	const pieces: string[] = [];
	for (let start = 0; start < points.length; start += size)
		pieces.push(points.slice(start, start + size).join(''));
	return pieces;
}

function stopReasonOf(blocks: BedrockBlock[], options: BedrockReplyOptions): string {
	return (
		options.stopReason ?? (blocks.some((block) => 'toolUse' in block) ? 'tool_use' : 'end_turn')
	);
}

function usageOf(blocks: BedrockBlock[], options: BedrockReplyOptions) {
	const inputTokens = options.usage?.inputTokens ?? 30;
	const outputTokens =
		options.usage?.outputTokens ?? Math.max(1, Math.ceil(JSON.stringify(blocks).length / 4));
	return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** The events of a streamed answer, in Bedrock's order (see the file comment). */
export function bedrockConverseEvents(
	blocks: BedrockBlock[],
	options: BedrockReplyOptions = {},
): BedrockEvent[] {
	const size = options.deltaSize ?? 8;
	const events: BedrockEvent[] = [{ type: 'messageStart', body: { role: 'assistant' } }];
	blocks.forEach((block, contentBlockIndex) => {
		if ('text' in block) {
			for (const text of split(block.text, size))
				events.push({ type: 'contentBlockDelta', body: { contentBlockIndex, delta: { text } } });
		} else {
			const { toolUseId, name, input } = block.toolUse;
			events.push({
				type: 'contentBlockStart',
				body: { contentBlockIndex, start: { toolUse: { toolUseId, name } } },
			});
			for (const piece of split(JSON.stringify(input), size))
				events.push({
					type: 'contentBlockDelta',
					body: { contentBlockIndex, delta: { toolUse: { input: piece } } },
				});
		}
		events.push({ type: 'contentBlockStop', body: { contentBlockIndex } });
	});
	events.push(
		{ type: 'messageStop', body: { stopReason: stopReasonOf(blocks, options) } },
		{ type: 'metadata', body: { usage: usageOf(blocks, options), metrics: { latencyMs: 321 } } },
	);
	return events;
}

/** The binary event-stream body of these events (Smithy's codec; each payload with Bedrock's `p` padding). */
export function encodeBedrockEvents(events: BedrockEvent[]): Buffer {
	return Buffer.concat(
		events.map(({ type, body }) =>
			codec.encode({
				headers: {
					':event-type': { type: 'string', value: type },
					':content-type': { type: 'string', value: 'application/json' },
					':message-type': { type: 'string', value: 'event' },
				},
				body: fromUtf8(JSON.stringify({ ...body, p: 'abcdefghijklmnopqrstuvwxyzABCDEF' })),
			}),
		),
	);
}

/**
 * Answer a Converse or ConverseStream request (`operation`) with these blocks: the binary
 * event stream for `converse-stream`, else Converse's JSON.
 */
export function bedrockReply(
	operation: string,
	blocks: BedrockBlock[],
	options: BedrockReplyOptions = {},
): BedrockHttpReply {
	const requestId = { 'x-amzn-requestid': '6c7b0f52-0000-4000-8000-fakefakefake' };
	if (operation === 'converse-stream') {
		return {
			status: 200,
			headers: { 'content-type': 'application/vnd.amazon.eventstream', ...requestId },
			body: encodeBedrockEvents(bedrockConverseEvents(blocks, options)),
		};
	}
	const answer = {
		output: { message: { role: 'assistant', content: blocks } },
		stopReason: stopReasonOf(blocks, options),
		usage: usageOf(blocks, options),
		metrics: { latencyMs: 321 },
	};
	return {
		status: 200,
		headers: { 'content-type': 'application/json', ...requestId },
		body: Buffer.from(JSON.stringify(answer)),
	};
}

/** A Bedrock error answer, e.g. `bedrockError(400, 'ValidationException', 'The provided model identifier is invalid.')`. */
export function bedrockError(status: number, type: string, message: string): BedrockHttpReply {
	return {
		status,
		headers: {
			'content-type': 'application/json',
			'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
		},
		body: Buffer.from(JSON.stringify({ message })),
	};
}

/** `/model/{id}/{operation}` → its parts (the id URL-decoded). */
export function parseBedrockPath(path: string): { modelId: string; operation: string } {
	const match = /^\/model\/([^/]+)\/([a-z-]+)/.exec(path);
	return {
		modelId: match ? decodeURIComponent(match[1]) : '',
		operation: match?.[2] ?? '',
	};
}

export interface FakeBedrock {
	/** `http://127.0.0.1:<port>`: the AWS credential's Bedrock Runtime endpoint. */
	endpoint: string;
	requests: BedrockRequest[];
	close(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1 with a free port; `respond` answers each request.
 * @throws when the port cannot be bound
 */
export async function startFakeBedrock(
	respond: (request: BedrockRequest) => BedrockHttpReply,
): Promise<FakeBedrock> {
	const requests: BedrockRequest[] = [];
	const sockets = new Set<Socket>();
	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		const pieces: Buffer[] = [];
		for await (const piece of request) pieces.push(piece as Buffer);
		const text = Buffer.concat(pieces).toString('utf8');
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(request.headers))
			if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
		const path = request.url ?? '/';
		const recorded: BedrockRequest = {
			method: request.method ?? 'GET',
			path,
			...parseBedrockPath(path),
			headers,
			body: text === '' ? undefined : JSON.parse(text),
			index: requests.length,
		};
		requests.push(recorded);
		const reply = respond(recorded);
		response.writeHead(reply.status, { ...reply.headers, 'content-length': reply.body.length });
		response.end(reply.body);
	};
	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			response.writeHead(500, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ message: `fake bedrock: ${String(error)}` }));
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		endpoint: `http://127.0.0.1:${port}`,
		requests,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON */

/** The `toolSpec`s of a Converse request's `toolConfig`, by name. */
export function bedrockToolSpecs(
	body: any,
): Map<string, { description?: string; inputSchema?: any }> {
	const specs = new Map<string, { description?: string; inputSchema?: unknown }>();
	for (const tool of body?.toolConfig?.tools ?? [])
		if (tool?.toolSpec)
			specs.set(tool.toolSpec.name, {
				description: tool.toolSpec.description,
				inputSchema: tool.toolSpec.inputSchema,
			});
	return specs;
}

/** The `toolResult` blocks of a Converse request's user turns. */
export function bedrockToolResults(body: any): any[] {
	return (body?.messages ?? [])
		.filter((message: any) => message?.role === 'user')
		.flatMap((message: any) => message.content ?? [])
		.filter((block: any) => block?.toolResult)
		.map((block: any) => block.toolResult);
}

/** The `toolUse` blocks of a Converse request's assistant turns. */
export function bedrockToolUses(body: any): any[] {
	return (body?.messages ?? [])
		.filter((message: any) => message?.role === 'assistant')
		.flatMap((message: any) => message.content ?? [])
		.filter((block: any) => block?.toolUse)
		.map((block: any) => block.toolUse);
}
