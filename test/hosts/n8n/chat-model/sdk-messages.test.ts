import type { Message } from '@n8n/ai-node-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toChatMessages } from '../../../../src/hosts/n8n/chat-model/sdk-messages';
import {
	toClosingChunks,
	toFinishChunk,
	toGenerateResult,
	toStreamChunk,
} from '../../../../src/hosts/n8n/chat-model/sdk-result';
import { toWireTools } from '../../../../src/hosts/n8n/chat-model/sdk-tools';
import type { AssistantTurn } from '../../../../src/chat/types';

const detail = { type: 'reasoning.text', text: 'hmm', signature: 'sig', index: 0 };

const turn = (fields: Partial<AssistantTurn>): AssistantTurn => ({
	text: '',
	reasoning: '',
	reasoningDetails: [],
	toolCalls: [],
	finishReason: 'stop',
	rawFinishReason: 'stop',
	...fields,
});

describe('SDK messages → Chat Completions messages', () => {
	it.each<{ name: string; messages: Message[]; wire: unknown[] }>([
		{
			name: 'system and user text (several text blocks joined)',
			messages: [
				{ role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
				{
					role: 'user',
					name: 'ada',
					content: [
						{ type: 'text', text: 'one' },
						{ type: 'text', text: 'two' },
					],
				},
			],
			wire: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', name: 'ada', content: 'one\ntwo' },
			],
		},
		{
			name: 'images and files as content parts (base64, bytes, URLs)',
			messages: [
				{
					role: 'user',
					content: [
						{ type: 'text', text: 'Look:' },
						{ type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
						{ type: 'file', mediaType: 'image/jpeg', data: new Uint8Array([1, 2, 3]) },
						{
							type: 'file',
							mediaType: 'image/webp',
							data: '',
							providerMetadata: { url: 'https://example.com/a.webp' },
						},
						{
							type: 'file',
							mediaType: 'application/pdf',
							data: 'JVBERi0=',
							providerMetadata: { filename: 'a.pdf' },
						},
					],
				},
			],
			wire: [
				{
					role: 'user',
					content: [
						{ type: 'text', text: 'Look:' },
						{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
						{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AQID' } },
						{ type: 'image_url', image_url: { url: 'https://example.com/a.webp' } },
						{
							type: 'file',
							file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
						},
					],
				},
			],
		},
		{
			name: 'an assistant turn with reasoning, details, tool calls (ids kept), then its results as tool messages',
			messages: [
				{
					role: 'assistant',
					content: [
						{ type: 'reasoning', text: 'hmm' },
						{
							type: 'tool-call',
							toolCallId: 'call_1',
							toolName: 'a',
							input: '{"x":1}',
							providerMetadata: { reasoning_details: [detail] },
						},
						{ type: 'tool-call', toolCallId: 'call_2', toolName: 'b', input: '{}' },
					],
				},
				{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', result: 'one' }] },
				{
					role: 'tool',
					content: [
						{ type: 'tool-result', toolCallId: 'call_2', result: { ok: true }, isError: true },
					],
				},
				{
					role: 'tool',
					content: [
						{
							type: 'tool-result',
							toolCallId: 'call_3',
							result: [
								{ type: 'text', text: 'a' },
								{ type: 'text', text: 'b' },
							],
						},
					],
				},
			],
			wire: [
				{
					role: 'assistant',
					content: null,
					reasoning: 'hmm',
					reasoning_details: [detail],
					tool_calls: [
						{ id: 'call_1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
						{ id: 'call_2', type: 'function', function: { name: 'b', arguments: '{}' } },
					],
				},
				{ role: 'tool', tool_call_id: 'call_1', content: 'one' },
				{ role: 'tool', tool_call_id: 'call_2', content: '{"ok":true}' },
				{ role: 'tool', tool_call_id: 'call_3', content: 'ab' },
			],
		},
		{
			name: 'an assistant text answer; an invalid tool call is sent back as it was',
			messages: [
				{ role: 'assistant', content: [{ type: 'text', text: 'Hi' }] },
				{
					role: 'assistant',
					content: [
						{
							type: 'invalid-tool-call',
							toolCallId: 'call_x',
							name: 'a',
							args: '{"x":',
							error: 'Malformed',
						},
					],
				},
			],
			wire: [
				{ role: 'assistant', content: 'Hi' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{ id: 'call_x', type: 'function', function: { name: 'a', arguments: '{"x":' } },
					],
				},
			],
		},
	])('$name', ({ messages, wire }) => {
		expect(toChatMessages(messages)).toEqual(wire);
	});
});

describe('assistant turn → SDK result', () => {
	it('text, reasoning with its details, tool calls with ids, usage with cached and reasoning tokens', () => {
		const result = toGenerateResult(
			turn({
				text: 'Calling.',
				reasoning: 'hmm',
				reasoningDetails: [detail],
				toolCalls: [
					{ toolCallId: 'call_1', name: 'a', argumentsText: '{ "x": 1 }', arguments: { x: 1 } },
					{
						toolCallId: 'call_2',
						name: 'b',
						argumentsText: '{"x":',
						error: 'Unexpected end of JSON input',
					},
				],
				finishReason: 'tool-calls',
				rawFinishReason: 'tool_calls',
				usage: {
					promptTokens: 10,
					completionTokens: 5,
					totalTokens: 15,
					cachedTokens: 8,
					reasoningTokens: 2,
					cost: 0.01,
					cacheWriteTokens: 3,
				},
				model: 'anthropic/claude-sonnet-4',
			}),
		);
		expect(result).toEqual({
			finishReason: 'tool-calls',
			message: {
				role: 'assistant',
				content: [
					{ type: 'reasoning', text: 'hmm', providerMetadata: { reasoning_details: [detail] } },
					{ type: 'text', text: 'Calling.' },
					{ type: 'tool-call', toolCallId: 'call_1', toolName: 'a', input: '{"x":1}' },
					{
						type: 'invalid-tool-call',
						toolCallId: 'call_2',
						name: 'b',
						args: '{"x":',
						error: 'Unexpected end of JSON input',
					},
				],
			},
			usage: {
				promptTokens: 10,
				completionTokens: 5,
				totalTokens: 15,
				inputTokenDetails: { cacheRead: 8 },
				outputTokenDetails: { reasoning: 2 },
				additionalMetadata: { cost: 0.01, cacheWriteTokens: 3 },
			},
			providerMetadata: {
				finish_reason: 'tool_calls',
				model_name: 'anthropic/claude-sonnet-4',
				reasoning_details: [detail],
			},
		});
	});

	it('round trip: the result message, sent back, is the assistant message the model sent', () => {
		const result = toGenerateResult(
			turn({
				reasoning: 'hmm',
				reasoningDetails: [detail],
				toolCalls: [{ toolCallId: 'call_1', name: 'a', argumentsText: '{}', arguments: {} }],
			}),
		);
		expect(toChatMessages([result.message])).toEqual([
			{
				role: 'assistant',
				content: null,
				reasoning: 'hmm',
				reasoning_details: [detail],
				tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'a', arguments: '{}' } }],
			},
		]);
	});

	it('an empty answer is one empty text block', () => {
		expect(toGenerateResult(turn({})).message.content).toEqual([{ type: 'text', text: '' }]);
	});

	it('stream chunks: deltas, one tool-call-delta per assembled call, nothing for partial tool-call deltas; finish with details', () => {
		expect(toStreamChunk({ type: 'text-delta', text: 'a' })).toEqual({
			type: 'text-delta',
			delta: 'a',
		});
		expect(toStreamChunk({ type: 'reasoning-delta', text: 'r' })).toEqual({
			type: 'reasoning-delta',
			delta: 'r',
		});
		expect(
			toStreamChunk({ type: 'tool-call-delta', index: 0, toolCallId: 'c', argumentsDelta: '{' }),
		).toBeUndefined();
		expect(
			toStreamChunk({
				type: 'tool-call',
				toolCall: { toolCallId: 'c', name: 'a', argumentsText: '{"x": 1}', arguments: { x: 1 } },
			}),
		).toEqual({
			type: 'tool-call-delta',
			id: 'c',
			name: 'a',
			argumentsDelta: '{"x":1}',
		});
		expect(
			toFinishChunk(
				turn({
					reasoningDetails: [detail],
					usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
				}),
			),
		).toEqual({
			type: 'finish',
			finishReason: 'stop',
			usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
			providerMetadata: { finish_reason: 'stop', reasoning_details: [detail] },
		});
	});
});

describe('closing chunks of a streamed turn', () => {
	it('a tool turn with reasoning_details: a provider block with them, then finish; a plain answer: finish only', () => {
		const call = { toolCallId: 'c', name: 'a', argumentsText: '{}', arguments: {} };
		expect(
			toClosingChunks(
				turn({ reasoningDetails: [detail], toolCalls: [call], finishReason: 'tool-calls' }),
			).map((chunk) => chunk.type),
		).toEqual(['content', 'finish']);
		expect(toClosingChunks(turn({ reasoningDetails: [detail], toolCalls: [call] }))[0]).toEqual({
			type: 'content',
			content: { type: 'provider', value: { reasoning_details: [detail] } },
		});
		expect(
			toClosingChunks(turn({ reasoningDetails: [detail] })).map((chunk) => chunk.type),
		).toEqual(['finish']);
	});

	it('a provider block with reasoning_details in an assistant message sends them back', () => {
		expect(
			toChatMessages([
				{
					role: 'assistant',
					content: [
						{ type: 'tool-call', toolCallId: 'c', toolName: 'a', input: '{}' },
						{ type: 'provider', value: { reasoning_details: [detail] } },
					],
				},
			]),
		).toEqual([
			{
				role: 'assistant',
				content: null,
				reasoning_details: [detail],
				tool_calls: [{ id: 'c', type: 'function', function: { name: 'a', arguments: '{}' } }],
			},
		]);
	});
});

describe('SDK tools → Chat Completions tools', () => {
	it('JSON Schema and zod input schemas, shaped for the model family', () => {
		const tools = toWireTools(
			[
				{
					type: 'function',
					name: 'json',
					description: 'JSON',
					inputSchema: {
						$schema: 'http://json-schema.org/draft-07/schema#',
						type: 'object',
						properties: { a: { type: 'array' } },
					},
				},
				{ type: 'function', name: 'zod', inputSchema: z.object({ b: z.number().describe('B') }) },
			],
			'openai/gpt-4.1',
		);
		expect(tools).toEqual([
			{
				type: 'function',
				function: {
					name: 'json',
					description: 'JSON',
					parameters: { type: 'object', properties: { a: { type: 'array', items: {} } } },
				},
			},
			{
				type: 'function',
				function: {
					name: 'zod',
					parameters: expect.objectContaining({
						type: 'object',
						properties: { b: { type: 'number', description: 'B' } },
						required: ['b'],
					}),
				},
			},
		]);
	});

	it('a provider tool is refused by name', () => {
		expect(() => toWireTools([{ type: 'provider', name: 'web_search' }], 'm')).toThrow(
			expect.objectContaining({
				code: 'PROVIDER_TOOL_UNSUPPORTED',
				message: expect.stringContaining('web_search'),
			}),
		);
	});
});
