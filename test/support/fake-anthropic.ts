/**
 * Anthropic Messages API replies for the loopback fake (`fake-chat-server.ts`): the same server
 * answers `POST /v1/messages` when `respond` returns one of these replies. Point an Anthropic
 * client at `server.baseUrl` without its `/v1` (the SDK appends `/v1/messages`).
 *
 * Wire format as documented by Anthropic (Messages API, "Streaming Messages"):
 * - streaming (`"stream": true` in the request): `text/event-stream` with named events, each
 *   `event: <type>\ndata: <json>\n\n`, in this order: `message_start` (the message with empty
 *   `content`, `stop_reason: null` and input usage), `ping`, then per content block
 *   `content_block_start` (`{type:'text', text:''}` or `{type:'tool_use', id, name, input:{}}`),
 *   `content_block_delta` (`text_delta` / `input_json_delta` with `partial_json` pieces),
 *   `content_block_stop`; then `message_delta` (`stop_reason`, `stop_sequence`, output usage)
 *   and `message_stop`. There is no `[DONE]`.
 * - otherwise one JSON `message` (`content` blocks, `stop_reason`, `usage`).
 * - errors: `{"type":"error","error":{"type":"…","message":"…"}}` with the HTTP status.
 *
 * ```ts
 * const server = await startFakeChatServer({
 *   respond: (request) => anthropicToolUseReply(request, [{ id: 'toolu_1', name: 'add', input: { a: 1 } }]),
 * });
 * ```
 */
import type { FakeReply, FakeRequest } from './fake-chat-server';

/** A content block of an assistant message. */
export type AnthropicBlock =
	{ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: object };

/** One tool call for {@link anthropicToolUseReply}. */
export interface AnthropicToolUse {
	/** Default `toolu_fake_<n>`. */
	id?: string;
	name: string;
	input: object;
}

export interface AnthropicReplyOptions {
	/** Reported as the message's model (default: the request's `model`, else `claude-fake`). */
	model?: string;
	/** Message id (default `msg_fake_1`). */
	id?: string;
	/** Characters per `text_delta` / `input_json_delta` (default 8). */
	deltaSize?: number;
	/** Token counts (default: 12 input, output from the content length). */
	usage?: { input_tokens: number; output_tokens: number };
	/** Overrides `stop_reason` (default `tool_use` when a tool_use block is present, else `end_turn`). */
	stopReason?: string;
	/** Force streaming or not (default: the request's `stream` field). */
	stream?: boolean;
	/** Extra reply fields (status, headers, delays …). */
	reply?: Omit<FakeReply, 'chunks' | 'rawSse'>;
}

/** One server-sent event of a streamed Anthropic message. */
export interface AnthropicEvent {
	event: string;
	data: Record<string, unknown>;
}

/** Pieces of `size` code points (a real server never splits a surrogate pair). */
function split(text: string, size: number): string[] {
	const points = Array.from(text);
	const pieces: string[] = [];
	for (let start = 0; start < points.length; start += size)
		pieces.push(points.slice(start, start + size).join(''));
	return pieces;
}

function stopReasonOf(content: AnthropicBlock[], options: AnthropicReplyOptions): string {
	return (
		options.stopReason ??
		(content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn')
	);
}

function usageOf(
	content: AnthropicBlock[],
	options: AnthropicReplyOptions,
): { input_tokens: number; output_tokens: number } {
	if (options.usage) return options.usage;
	const length = content.reduce(
		(sum, block) =>
			sum + (block.type === 'text' ? block.text.length : JSON.stringify(block.input).length),
		0,
	);
	return { input_tokens: 12, output_tokens: Math.max(1, Math.ceil(length / 4)) };
}

/**
 * The non-streaming answer: one `message` object.
 * @param content the assistant's content blocks
 */
export function anthropicMessage(
	content: AnthropicBlock[],
	options: AnthropicReplyOptions = {},
): Record<string, unknown> {
	const usage = usageOf(content, options);
	return {
		id: options.id ?? 'msg_fake_1',
		type: 'message',
		role: 'assistant',
		model: options.model ?? 'claude-fake',
		content,
		stop_reason: stopReasonOf(content, options),
		stop_sequence: null,
		usage: {
			input_tokens: usage.input_tokens,
			cache_creation_input_tokens: 0,
			cache_read_input_tokens: 0,
			output_tokens: usage.output_tokens,
		},
	};
}

/**
 * The streamed answer as its sequence of events (see the file comment for the order).
 * @param content the assistant's content blocks
 */
export function anthropicEvents(
	content: AnthropicBlock[],
	options: AnthropicReplyOptions = {},
): AnthropicEvent[] {
	const size = options.deltaSize ?? 8;
	const usage = usageOf(content, options);
	const events: AnthropicEvent[] = [
		{
			event: 'message_start',
			data: {
				type: 'message_start',
				message: {
					id: options.id ?? 'msg_fake_1',
					type: 'message',
					role: 'assistant',
					model: options.model ?? 'claude-fake',
					content: [],
					stop_reason: null,
					stop_sequence: null,
					usage: {
						input_tokens: usage.input_tokens,
						cache_creation_input_tokens: 0,
						cache_read_input_tokens: 0,
						output_tokens: 1,
					},
				},
			},
		},
		{ event: 'ping', data: { type: 'ping' } },
	];
	content.forEach((block, index) => {
		if (block.type === 'text') {
			events.push({
				event: 'content_block_start',
				data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
			});
			for (const piece of split(block.text, size)) {
				events.push({
					event: 'content_block_delta',
					data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
				});
			}
		} else {
			events.push({
				event: 'content_block_start',
				data: {
					type: 'content_block_start',
					index,
					content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
				},
			});
			// Anthropic sends an empty partial_json first, then the JSON text in pieces.
			for (const piece of ['', ...split(JSON.stringify(block.input), size)]) {
				events.push({
					event: 'content_block_delta',
					data: {
						type: 'content_block_delta',
						index,
						delta: { type: 'input_json_delta', partial_json: piece },
					},
				});
			}
		}
		events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
	});
	events.push(
		{
			event: 'message_delta',
			data: {
				type: 'message_delta',
				delta: { stop_reason: stopReasonOf(content, options), stop_sequence: null },
				usage: { output_tokens: usage.output_tokens },
			},
		},
		{ event: 'message_stop', data: { type: 'message_stop' } },
	);
	return events;
}

/** The SSE text of {@link anthropicEvents}. */
export function anthropicSse(events: AnthropicEvent[]): string {
	return events
		.map(({ event, data }) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
		.join('');
}

/**
 * Answer `request` with these content blocks: an SSE stream when the request asked for
 * `stream: true` (or `options.stream`), else one JSON message.
 */
export function anthropicReply(
	request: Pick<FakeRequest, 'body'>,
	content: AnthropicBlock[],
	options: AnthropicReplyOptions = {},
): FakeReply {
	const stream = options.stream ?? request.body?.stream === true;
	const resolved = {
		...options,
		model:
			options.model ?? (typeof request.body?.model === 'string' ? request.body.model : undefined),
	};
	const requestId = { 'request-id': `req_fake_${resolved.id ?? 'msg_fake_1'}` };
	if (stream) {
		return {
			...options.reply,
			headers: {
				'Content-Type': 'text/event-stream; charset=utf-8',
				...requestId,
				...options.reply?.headers,
			},
			rawSse: anthropicSse(anthropicEvents(content, resolved)),
		};
	}
	return {
		...options.reply,
		headers: { 'Content-Type': 'application/json', ...requestId, ...options.reply?.headers },
		rawSse: JSON.stringify(anthropicMessage(content, resolved)),
	};
}

/** A plain text answer (`stop_reason: end_turn`). */
export function anthropicTextReply(
	request: Pick<FakeRequest, 'body'>,
	text: string,
	options: AnthropicReplyOptions = {},
): FakeReply {
	return anthropicReply(request, [{ type: 'text', text }], options);
}

/** Tool calls (`stop_reason: tool_use`), optionally after a text block. */
export function anthropicToolUseReply(
	request: Pick<FakeRequest, 'body'>,
	calls: AnthropicToolUse[],
	options: AnthropicReplyOptions & { text?: string } = {},
): FakeReply {
	const blocks: AnthropicBlock[] = options.text ? [{ type: 'text', text: options.text }] : [];
	calls.forEach((call, index) =>
		blocks.push({
			type: 'tool_use',
			id: call.id ?? `toolu_fake_${index + 1}`,
			name: call.name,
			input: call.input,
		}),
	);
	return anthropicReply(request, blocks, options);
}

/** An Anthropic error answer, e.g. `anthropicErrorReply(400, 'invalid_request_error', '…')`. */
export function anthropicErrorReply(status: number, type: string, message: string): FakeReply {
	return { status, errorBody: { type: 'error', error: { type, message } } };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON */

/** The `tools` of a Messages request, by name (`input_schema` is the JSON Schema). */
export function anthropicToolsByName(
	body: any,
): Map<string, { description: string; input_schema: any }> {
	const tools = new Map<string, { description: string; input_schema: unknown }>();
	for (const tool of body?.tools ?? []) {
		if (typeof tool?.name === 'string')
			tools.set(tool.name, {
				description: tool.description ?? '',
				input_schema: tool.input_schema,
			});
	}
	return tools;
}

/** The `tool_result` blocks of a Messages request's user turns (content flattened to text). */
export function anthropicToolResults(
	body: any,
): Array<{ tool_use_id: string; content: string; is_error: boolean }> {
	const results: Array<{ tool_use_id: string; content: string; is_error: boolean }> = [];
	for (const message of body?.messages ?? []) {
		if (message?.role !== 'user' || !Array.isArray(message.content)) continue;
		for (const block of message.content) {
			if (block?.type !== 'tool_result') continue;
			const content =
				typeof block.content === 'string'
					? block.content
					: Array.isArray(block.content)
						? block.content
								.map((part: { type?: string; text?: string }) =>
									part?.type === 'text' ? part.text : JSON.stringify(part),
								)
								.join('')
						: JSON.stringify(block.content ?? '');
			results.push({ tool_use_id: block.tool_use_id, content, is_error: block.is_error === true });
		}
	}
	return results;
}

/** The `tool_use` blocks of a Messages request's assistant turns. */
export function anthropicToolUses(body: any): Array<{ id: string; name: string; input: unknown }> {
	const uses: Array<{ id: string; name: string; input: unknown }> = [];
	for (const message of body?.messages ?? []) {
		if (message?.role !== 'assistant' || !Array.isArray(message.content)) continue;
		for (const block of message.content)
			if (block?.type === 'tool_use')
				uses.push({ id: block.id, name: block.name, input: block.input });
	}
	return uses;
}
