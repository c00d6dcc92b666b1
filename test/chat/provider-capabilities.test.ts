/**
 * The capability rows (chat/chat-server: per server; schema/model-family: per family;
 * chat/map-finish-reason: per raw value) and what reads them: requests are built for their
 * server, so another OpenAI-compatible server never receives OpenRouter's fields and
 * OpenRouter does; finish reasons and reasoning text are read the same way on both paths
 * (the chat client's stream and a connected LangChain model).
 */
import { AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { buildChatRequest } from '../../src/agent/build-chat-request';
import { createAgentState } from '../../src/agent/create-agent-state';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { createValidatorState } from '../../src/agent/modes/validator/create-validator-state';
import { buildValidatorRequest } from '../../src/agent/modes/validator/next-validator-action';
import { modelRequest, type ModelSettings } from '../../src/agent/model-options';
import { runAgent } from '../../src/agent/run-agent';
import { chatServerOf, chatServers, type ChatServer } from '../../src/chat/chat-server';
import { mapFinishReason } from '../../src/chat/map-finish-reason';
import type { ChatRequest, StreamPart } from '../../src/chat/types';
import { turnFrom } from '../../src/langchain/langchain-model-caller';
import { modelFamilies } from '../../src/schema/model-family';
import { textReply } from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';
import { bytesCutAt, partsOf } from './chat-stream-test-support';

const encoder = new TextEncoder();
const tool = {
	name: 'upper',
	description: 'Upper-cases',
	parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
/** Every model setting, on a family whose prompt caching needs breakpoints. */
const settings: ModelSettings = {
	model: 'anthropic/claude-sonnet-4',
	promptCaching: true,
	fallbackModels: ['openai/gpt-4.1'],
	providerPreferences: { order: ['anthropic'] },
	temperature: 0,
	reasoning: { effort: 'high' },
};
const messages: ChatRequest['messages'] = [
	{ role: 'system', content: 'Be brief.' },
	{ role: 'user', content: 'go' },
];

/** The request each builder makes for `server`. */
const builders: Array<[string, (server?: ChatServer) => ChatRequest]> = [
	[
		'the full loop',
		(server) =>
			buildChatRequest(
				createAgentState({
					config: { ...settings, server, systemMessage: 'Be brief.' },
					tools: [tool],
					prompt: 'go',
				}),
			),
	],
	[
		'validator mode',
		(server) =>
			buildValidatorRequest(
				createValidatorState({
					config: { ...settings, server, systemMessage: 'Be brief.' },
					tools: [tool],
					prompt: 'go',
				}),
			),
	],
	[
		'the chat-model sub-node (modelRequest)',
		(server) => modelRequest({ ...settings, server }, messages),
	],
];

describe('requests are built for their server', () => {
	it.each(builders)(
		'%s: OpenRouter gets models, provider, cache_control and reasoning',
		(_name, build) => {
			for (const server of ['openrouter', undefined] as const) {
				const request = build(server);
				expect(request.models).toEqual(['anthropic/claude-sonnet-4', 'openai/gpt-4.1']);
				expect(request.provider).toEqual({ order: ['anthropic'] });
				expect(JSON.stringify(request.messages)).toContain('"cache_control"');
				expect(request.reasoning).toEqual({ effort: 'high' });
				expect(request).not.toHaveProperty('reasoning_effort');
			}
		},
	);

	it.each(builders)(
		'%s: another OpenAI-compatible server never gets an OpenRouter field',
		(_name, build) => {
			const request = build('openai-compatible');
			expect(JSON.stringify(request)).not.toMatch(/"(models|provider|cache_control|reasoning)"/);
			expect(request.reasoning_effort).toBe('high');
			expect(request.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
		},
	);

	it('the server of a connection: OpenRouter by its URL (or the override), anything else OpenAI-compatible', () => {
		expect(chatServerOf({ baseUrl: 'https://openrouter.ai/api/v1' })).toBe('openrouter');
		expect(chatServerOf({ baseUrl: 'https://eu.openrouter.ai/api/v1' })).toBe('openrouter');
		expect(chatServerOf({ baseUrl: 'https://api.openai.com/v1' })).toBe('openai-compatible');
		expect(chatServerOf({ baseUrl: 'http://127.0.0.1:4000/v1', openRouter: true })).toBe(
			'openrouter',
		);
		expect(chatServers['openai-compatible'].fallbacks).toBe('client');
	});

	const serve = fakeChatServerPerTest();

	it('a library run names no server: runAgent builds for the one createChatModelCaller talks to', async () => {
		const fake = await serve(() => textReply('ok'));
		const callModel = createChatModelCaller({ baseUrl: fake.baseUrl, retry: { maxRetries: 0 } });
		expect(callModel.server).toBe('openai-compatible');
		const { state } = await runAgent({
			input: { config: { ...settings, systemMessage: 'Be brief.' }, prompt: 'go' },
			tools: [],
			callModel,
		});
		expect(state.config.server).toBe('openai-compatible');
		expect(JSON.stringify(fake.requests[0].body)).not.toMatch(
			/"(models|provider|cache_control|reasoning)"/,
		);
	});
});

describe('model family rows', () => {
	it('prompt caching breakpoints only for the families that need them', () => {
		const cached = (model: string) =>
			JSON.stringify(modelRequest({ model, promptCaching: true }, messages).messages).includes(
				'cache_control',
			);
		expect(cached('anthropic/claude-sonnet-4')).toBe(true);
		expect(cached('google/gemini-2.5-pro')).toBe(true);
		expect(cached('openai/gpt-4.1')).toBe(false);
		expect(cached('meta-llama/llama-3.3-70b')).toBe(false);
		expect(
			Object.entries(modelFamilies)
				.filter(([, row]) => row.cacheBreakpoints)
				.map(([family]) => family),
		).toEqual(['anthropic', 'google']);
	});
});

describe('finish reasons: one table for the stream and for LangChain models', () => {
	it.each([
		['stop', 'stop'],
		['end_turn', 'stop'],
		['stop_sequence', 'stop'],
		['STOP', 'stop'],
		['length', 'length'],
		['max_tokens', 'length'],
		['MAX_TOKENS', 'length'],
		['tool_calls', 'tool-calls'],
		['function_call', 'tool-calls'],
		['tool_use', 'tool-calls'],
		['content_filter', 'content-filter'],
		['SAFETY', 'content-filter'],
		['refusal', 'content-filter'],
		['error', 'error'],
		['something_new', 'other'],
		['toString', 'other'],
	])('%s → %s, on both paths', async (raw, expected) => {
		expect(mapFinishReason(raw)).toBe(expected);
		const fromLangChain = turnFrom(
			new AIMessageChunk({ content: 'x', response_metadata: { finish_reason: raw } }),
		);
		expect(fromLangChain.finishReason).toBe(expected);
		if (raw === 'error') return; // the stream reports finish_reason "error" as an error part
		const parts = await partsOf(
			bytesCutAt(
				encoder.encode(
					`data: {"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"${raw}"}]}\n\n`,
				),
				[],
			),
		);
		expect(parts.at(-1)).toMatchObject({
			type: 'finish',
			finishReason: expected,
			rawFinishReason: raw,
		});
	});
});

describe('reasoning text fields', () => {
	const streamed = async (delta: object): Promise<StreamPart[]> =>
		partsOf(
			bytesCutAt(
				encoder.encode(
					`data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n`,
				),
				[],
			),
		);

	it.each([
		['reasoning (OpenRouter, Ollama)', { reasoning: 'thinking' }],
		['reasoning_content (DeepSeek, vLLM, LM Studio)', { reasoning_content: 'thinking' }],
		[
			'both names with the same text: counted once',
			{ reasoning: 'thinking', reasoning_content: 'thinking' },
		],
	])('%s, on both paths', async (_name, fields) => {
		expect((await streamed(fields))[0]).toEqual({ type: 'reasoning-delta', text: 'thinking' });
		expect(turnFrom(new AIMessageChunk({ content: '', additional_kwargs: fields })).reasoning).toBe(
			'thinking',
		);
	});
});
