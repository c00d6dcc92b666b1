import { describe, expect, it } from 'vitest';
import { loadChatFixtureSse, type ChatFixtureName } from '../../fixtures/chat/load-chat-fixture';
import { chatCompletion } from '../../src/chat/chat-completion';
import type { StreamPart } from '../../src/chat/types';
import { fakeChatServerForFile } from '../support/fake-chat-server-hooks';

// Each fixture is served over a real loopback HTTP connection as the SSE body.
let nextFixture: { name: ChatFixtureName; done: boolean } = { name: 'text', done: true };
const server = fakeChatServerForFile({
	respond: () => ({ rawSse: loadChatFixtureSse(nextFixture.name, { done: nextFixture.done }) }),
});

async function replay(name: ChatFixtureName, done = true) {
	nextFixture = { name, done };
	const parts: StreamPart[] = [];
	const turn = await chatCompletion(
		{ model: 'test/model', messages: [{ role: 'user', content: 'hi' }] },
		{ baseUrl: server.baseUrl, onPart: (part) => void parts.push(part) },
	);
	return { turn, parts };
}

describe('recorded-format streams replayed over the wire', () => {
	it('text', async () => {
		const { turn, parts } = await replay('text');
		expect(turn).toMatchObject({
			text: 'The capital of France is Paris — ✓.',
			finishReason: 'stop',
			toolCalls: [],
			reasoning: '',
			model: 'openai/gpt-4o-mini',
		});
		expect(parts.filter((part) => part.type === 'text-delta')).toHaveLength(3);
		expect(parts.at(-1)?.type).toBe('finish');
	});

	it('reasoning: details preferred over the duplicate `reasoning` text, merged by index with the signature', async () => {
		const { turn } = await replay('reasoning');
		expect(turn.reasoning).toBe(
			'The user asks for 17 × 23. 17 × 20 = 340, 17 × 3 = 51, total 391.',
		);
		expect(turn.reasoningDetails).toEqual([
			{
				type: 'reasoning.text',
				text: 'The user asks for 17 × 23. 17 × 20 = 340, 17 × 3 = 51, total 391.',
				format: 'anthropic-claude-v1',
				index: 0,
				signature: 'EqQBCkYIBxgCKkBsig==',
			},
		]);
		expect(turn.text).toBe('17 × 23 = 391.');
		expect(turn.usage?.reasoningTokens).toBe(48);
	});

	it('one tool call with arguments in pieces (a multi-byte character among them)', async () => {
		const { turn, parts } = await replay('tool-call');
		expect(turn.finishReason).toBe('tool-calls');
		expect(turn.toolCalls).toEqual([
			{
				toolCallId: 'call_Xa9LkQ',
				name: 'get_weather',
				argumentsText: '{"city": "Zürich", "unit": "C"}',
				arguments: { city: 'Zürich', unit: 'C' },
			},
		]);
		expect(parts.filter((part) => part.type === 'tool-call-delta')[0]).toEqual({
			type: 'tool-call-delta',
			index: 0,
			toolCallId: 'call_Xa9LkQ',
			name: 'get_weather',
		});
	});

	it('parallel tool calls with interleaved deltas, after some text', async () => {
		const { turn } = await replay('parallel-tool-calls');
		expect(turn.text).toBe('Checking both.');
		expect(
			turn.toolCalls.map(({ toolCallId: id, name, arguments: args }) => ({ id, name, args })),
		).toEqual([
			{ id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } },
			{ id: 'call_rome', name: 'get_weather', args: { city: 'Rome' } },
		]);
	});

	it('arguments split per character', async () => {
		const { turn } = await replay('arguments-per-byte');
		expect(turn.toolCalls).toEqual([
			{
				toolCallId: 'call_bytes',
				name: 'search',
				argumentsText: '{"query": "naïve café ✓", "limit": 5}',
				arguments: { query: 'naïve café ✓', limit: 5 },
			},
		]);
	});

	it('a whole call in one chunk together with its finish_reason', async () => {
		const { turn } = await replay('whole-call-one-chunk');
		expect(turn.toolCalls).toEqual([
			{
				toolCallId: 'tool_0_lookup_order',
				name: 'lookup_order',
				argumentsText: '{"orderId":"A-1001","includeItems":true}',
				arguments: { orderId: 'A-1001', includeItems: true },
			},
		]);
		expect(turn.model).toBe('google/gemini-2.5-flash');
	});

	it('missing and empty arguments become {}', async () => {
		const { turn } = await replay('empty-arguments');
		expect(turn.toolCalls).toEqual([
			{ toolCallId: 'call_now', name: 'get_current_time', argumentsText: '', arguments: {} },
			{ toolCallId: 'call_rand', name: 'random_number', argumentsText: '', arguments: {} },
		]);
	});

	it('index 0 reused for two calls with distinct ids gives two calls', async () => {
		const { turn } = await replay('index-reuse');
		expect(
			turn.toolCalls.map(({ toolCallId: id, name, arguments: args }) => ({ id, name, args })),
		).toEqual([
			{ id: 'call_a1', name: 'add', args: { a: 1, b: 2 } },
			{ id: 'call_b2', name: 'multiply', args: { a: 3, b: 4 } },
		]);
	});

	it('two JSON objects run together: one call with an error, not two executions', async () => {
		const { turn } = await replay('run-together-arguments');
		expect(turn.toolCalls).toHaveLength(1);
		expect(turn.toolCalls[0].arguments).toBeUndefined();
		expect(turn.toolCalls[0].error).toBe(
			`Arguments of tool call 'send_email' (call_twice) could not be used. Tool arguments are not one JSON object: two JSON values run together (a second object starts here) at position 22 in ${JSON.stringify('{"to":"a@example.com"}{"to":"b@example.com"}')}`,
		);
	});

	it('broken JSON arguments: the call is kept with an error', async () => {
		const { turn } = await replay('broken-arguments');
		expect(turn.toolCalls[0]).toMatchObject({
			toolCallId: 'call_broken',
			name: 'create_ticket',
			argumentsText: '{"title": "Printer on fire", "priority": ',
		});
		expect(turn.toolCalls[0].error).toMatch(/the JSON ends too early \(truncated\) at position 41/);
	});

	it('mid-stream error chunk → MidStreamError with the provider message', async () => {
		const outcome = replay('mid-stream-error', false);
		await expect(outcome).rejects.toMatchObject({
			name: 'MidStreamError',
			code: 'CHAT_MID_STREAM',
			providerCode: 502,
			message:
				'The model provider failed mid-stream (502): Provider returned error: upstream connection reset',
		});
	});

	it('no finish_reason → IncompleteStreamError', async () => {
		await expect(replay('no-finish-reason')).rejects.toMatchObject({
			code: 'CHAT_STREAM_INCOMPLETE',
			message:
				'The model stream ended without a finish_reason (3 chunks, 33 characters of text, 0 tool calls); the answer may be cut off.',
		});
	});

	it('usage with cost, cached and cache-write tokens from the last chunk (choices: [])', async () => {
		const { turn } = await replay('usage-with-cost');
		expect(turn.usage).toEqual({
			promptTokens: 2048,
			completionTokens: 120,
			totalTokens: 2168,
			reasoningTokens: 32,
			cachedTokens: 1536,
			cacheWriteTokens: 256,
			cost: 0.008394,
		});
	});
});
