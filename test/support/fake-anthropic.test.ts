import { afterEach, describe, expect, it } from 'vitest';
import { startFakeChatServer, type FakeChatServer } from './fake-chat-server';
import {
	anthropicErrorReply,
	anthropicTextReply,
	anthropicToolResults,
	anthropicToolsByName,
	anthropicToolUseReply,
	anthropicToolUses,
} from './fake-anthropic';

let server: FakeChatServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const TOOL_INPUT = { text: 'grüße 🙂 "quoted" and a long enough text to split' };

/** POST /v1/messages as Anthropic's clients send it. */
async function postMessages(body: object): Promise<Response> {
	if (!server) throw new Error('no server');
	return fetch(`${server.baseUrl.replace(/\/v1$/, '')}/v1/messages`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': 'k',
			'anthropic-version': '2023-06-01',
		},
		body: JSON.stringify(body),
	});
}

/** Parse an SSE body into `{ event, data }` records, checking every record has both lines. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- event payloads are arbitrary JSON
function parseEvents(text: string): Array<{ event: string; data: any }> {
	return text
		.split('\n\n')
		.filter((record) => record.trim() !== '')
		.map((record) => {
			const lines = record.split('\n');
			expect(lines).toHaveLength(2);
			expect(lines[0]).toMatch(/^event: [a-z_]+$/);
			expect(lines[1]).toMatch(/^data: \{/);
			const event = lines[0].slice('event: '.length);
			const data = JSON.parse(lines[1].slice('data: '.length));
			expect(data.type).toBe(event);
			return { event, data };
		});
}

describe('fake Anthropic Messages API', () => {
	it('streams a text block and a tool_use block in the documented event order', async () => {
		server = await startFakeChatServer({
			respond: (request) =>
				anthropicToolUseReply(request, [{ id: 'toolu_1', name: 'Hash_Text', input: TOOL_INPUT }], {
					text: 'Let me hash that.',
				}),
		});
		const response = await postMessages({
			model: 'claude-x',
			max_tokens: 64,
			stream: true,
			messages: [{ role: 'user', content: 'hi' }],
		});
		expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
		const events = parseEvents(await response.text());
		const order = events.map(({ event, data }) =>
			data.delta?.type ? `${event}:${data.delta.type}` : event,
		);
		expect(order[0]).toBe('message_start');
		expect(order.at(-2)).toBe('message_delta');
		expect(order.at(-1)).toBe('message_stop');
		expect(order).not.toContain('[DONE]');

		const start = events[0].data.message;
		expect(start).toMatchObject({
			id: 'msg_fake_1',
			type: 'message',
			role: 'assistant',
			model: 'claude-x',
			content: [],
			stop_reason: null,
			stop_sequence: null,
		});
		expect(start.usage.input_tokens).toBe(12);

		// Rebuild the blocks from the deltas, as a client does.
		const blocks: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- rebuilt blocks of both kinds
		const json: string[] = [];
		for (const { event, data } of events) {
			if (event === 'content_block_start') {
				expect(data.index).toBe(blocks.length);
				blocks.push({ ...data.content_block });
				json.push('');
			} else if (event === 'content_block_delta') {
				if (data.delta.type === 'text_delta') blocks[data.index].text += data.delta.text;
				else json[data.index] += data.delta.partial_json;
			} else if (event === 'content_block_stop') {
				if (blocks[data.index].type === 'tool_use')
					blocks[data.index].input = JSON.parse(json[data.index]);
			}
		}
		expect(blocks).toEqual([
			{ type: 'text', text: 'Let me hash that.' },
			{ type: 'tool_use', id: 'toolu_1', name: 'Hash_Text', input: TOOL_INPUT },
		]);
		// A tool_use block starts with empty input, then an empty partial_json.
		const toolStart = events.find(({ data }) => data.content_block?.type === 'tool_use');
		expect(toolStart?.data.content_block.input).toEqual({});
		expect(
			events.find(({ data }) => data.delta?.type === 'input_json_delta')?.data.delta.partial_json,
		).toBe('');

		const delta = events.at(-2)?.data;
		expect(delta.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
		expect(delta.usage.output_tokens).toBeGreaterThan(0);
	});

	it('answers a non-streaming request with one message', async () => {
		server = await startFakeChatServer({
			respond: (request) => anthropicTextReply(request, 'Done.'),
		});
		const response = await postMessages({
			model: 'claude-y',
			max_tokens: 64,
			messages: [{ role: 'user', content: 'hi' }],
		});
		expect(response.headers.get('content-type')).toBe('application/json');
		expect(await response.json()).toEqual({
			id: 'msg_fake_1',
			type: 'message',
			role: 'assistant',
			model: 'claude-y',
			content: [{ type: 'text', text: 'Done.' }],
			stop_reason: 'end_turn',
			stop_sequence: null,
			usage: {
				input_tokens: 12,
				cache_creation_input_tokens: 0,
				cache_read_input_tokens: 0,
				output_tokens: 2,
			},
		});
	});

	it('sends errors in Anthropic’s shape with the status', async () => {
		server = await startFakeChatServer({
			respond: () => anthropicErrorReply(429, 'rate_limit_error', 'slow down'),
		});
		const response = await postMessages({ model: 'claude-x', max_tokens: 1, messages: [] });
		expect(response.status).toBe(429);
		expect(await response.json()).toEqual({
			type: 'error',
			error: { type: 'rate_limit_error', message: 'slow down' },
		});
	});

	it('reads tools, tool_use and tool_result blocks from a request', () => {
		const body = {
			tools: [
				{
					name: 'Hash_Text',
					description: 'Hashes.',
					input_schema: { type: 'object', properties: { text: { type: 'string' } } },
				},
			],
			messages: [
				{ role: 'user', content: 'hash it' },
				{
					role: 'assistant',
					content: [
						{ type: 'text', text: 'ok' },
						{ type: 'tool_use', id: 'toolu_1', name: 'Hash_Text', input: { text: 'a' } },
					],
				},
				{
					role: 'user',
					content: [
						{
							type: 'tool_result',
							tool_use_id: 'toolu_1',
							content: [{ type: 'text', text: '[{"sha256":"ab"}]' }],
						},
						{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'failed', is_error: true },
					],
				},
			],
		};
		expect(anthropicToolsByName(body).get('Hash_Text')?.input_schema.properties.text.type).toBe(
			'string',
		);
		expect(anthropicToolUses(body)).toEqual([
			{ id: 'toolu_1', name: 'Hash_Text', input: { text: 'a' } },
		]);
		expect(anthropicToolResults(body)).toEqual([
			{ tool_use_id: 'toolu_1', content: '[{"sha256":"ab"}]', is_error: false },
			{ tool_use_id: 'toolu_2', content: 'failed', is_error: true },
		]);
	});
});
