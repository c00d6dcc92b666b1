import { AIMessage, AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { Message, StreamChunk } from '@n8n/ai-node-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolbridgeChatModel } from '../../../../nodes/ToolbridgeChatModel/ToolbridgeChatModel.node';
import { loadAiNodeSdk } from '../../../../src/hosts/n8n/chat-model/load-ai-node-sdk';
import { createToolbridgeChatModel } from '../../../../src/hosts/n8n/chat-model/toolbridge-chat-model';
import { supplyToolbridgeChatModel } from '../../../../src/hosts/n8n/chat-model/supply-toolbridge-chat-model';
import { toolbridgeNativeModelOf } from '../../../../src/hosts/n8n/chat-model/toolbridge-native-model';
import {
	errorReply,
	reasoningReply,
	textReply,
	toolCallReply,
} from '../../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../../support/fake-chat-server-hooks';
import { apiKey, chatModelContext } from './chat-model-context';

const start = fakeChatServerPerTest();
const sdk = loadAiNodeSdk();

const tool = (name: string) =>
	new DynamicStructuredTool({
		name,
		description: `The ${name} tool`,
		schema: z.object({ text: z.string() }),
		func: async ({ text }) => `${name}:${text}`,
	});

const twoCalls = toolCallReply([
	{ id: 'call_a', name: 'upper', arguments: { text: 'first' } },
	{ id: 'call_b', name: 'lower', arguments: { text: 'second' } },
]);

async function supplied(baseUrl: string, parameters = {}) {
	const { context, traced } = chatModelContext({ baseUrl, parameters });
	const { response } = await new ToolbridgeChatModel().supplyData.call(context, 0);
	return { model: response as BaseChatModel, traced };
}

describe("Toolbridge Chat Model through n8n's LangChain adapter", () => {
	it("supplyData returns a LangChain chat model that answers, with usage, traced like n8n's own models", async () => {
		const server = await start(() => textReply('Hello there.'));
		const { model, traced } = await supplied(server.baseUrl, {
			options: {
				temperature: 0.2,
				maxTokens: 100,
				fallbackModels: 'test/backup',
				providerOrder: 'anthropic',
			},
		});
		const answer = await model.invoke([new HumanMessage('hi')]);
		expect(answer.text).toBe('Hello there.');
		expect((answer as AIMessage).usage_metadata).toMatchObject({
			input_tokens: 12,
			output_tokens: 3,
			total_tokens: 15,
		});
		const body = server.requests[0].body;
		expect(body).toMatchObject({
			model: 'test/model',
			temperature: 0.2,
			max_tokens: 100,
			stream: true,
			messages: [{ role: 'user', content: 'hi' }],
		});
		// A 127.0.0.1 base URL is not OpenRouter: fallbacks are tried by the client, and routing is not sent.
		expect(body.models).toBeUndefined();
		expect(body.provider).toBeUndefined();
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(traced.map((entry) => entry.kind)).toEqual(['input', 'output']);
	});

	it('bindTools + invoke: two parallel tool calls keep their ids, names and arguments; the results go back as tool messages', async () => {
		const server = await start(({ index }) => (index === 0 ? twoCalls : textReply('FIRST second')));
		const { model } = await supplied(server.baseUrl);
		const bound = model.bindTools!([tool('upper'), tool('lower')]);
		const turn = (await bound.invoke([new HumanMessage('convert both')])) as AIMessage;
		expect(turn.tool_calls).toEqual([
			{ type: 'tool_call', id: 'call_a', name: 'upper', args: { text: 'first' } },
			{ type: 'tool_call', id: 'call_b', name: 'lower', args: { text: 'second' } },
		]);
		expect(
			server.requests[0].body.tools.map(
				(wire: { function: { name: string } }) => wire.function.name,
			),
		).toEqual(['upper', 'lower']);
		expect(server.requests[0].body.tools[0].function.parameters).toMatchObject({
			type: 'object',
			properties: { text: { type: 'string' } },
		});

		const answer = await bound.invoke([
			new HumanMessage('convert both'),
			turn,
			new ToolMessage({ tool_call_id: 'call_a', content: 'FIRST' }),
			new ToolMessage({ tool_call_id: 'call_b', content: 'second' }),
		]);
		expect(answer.text).toBe('FIRST second');
		expect(server.requests[1].body.messages.slice(1)).toEqual([
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_a',
						type: 'function',
						function: { name: 'upper', arguments: '{"text":"first"}' },
					},
					{
						id: 'call_b',
						type: 'function',
						function: { name: 'lower', arguments: '{"text":"second"}' },
					},
				],
			},
			{ role: 'tool', tool_call_id: 'call_a', content: 'FIRST' },
			{ role: 'tool', tool_call_id: 'call_b', content: 'second' },
		]);
	});

	it('bindTools + stream: the adapter (every delta at index 0) assembles two parallel calls, because each delta carries its id', async () => {
		const server = await start(() => twoCalls);
		const { model } = await supplied(server.baseUrl);
		const bound = model.bindTools!([tool('upper'), tool('lower')]);
		let merged: AIMessageChunk | undefined;
		for await (const chunk of await bound.stream([new HumanMessage('convert both')]))
			merged = merged ? merged.concat(chunk) : chunk;
		expect(merged!.tool_calls).toEqual([
			{ type: 'tool_call', id: 'call_a', name: 'upper', args: { text: 'first' } },
			{ type: 'tool_call', id: 'call_b', name: 'lower', args: { text: 'second' } },
		]);
		expect(merged!.invalid_tool_calls ?? []).toEqual([]);
	});

	it('reasoning_details come back in response_metadata and are sent back with the tool turn they belong to', async () => {
		const reasoningCall = toolCallReply([
			{ id: 'call_r', name: 'upper', arguments: { text: 'x' } },
		]);
		const detail = {
			type: 'reasoning.text',
			text: 'thinking',
			signature: 'sig-opaque',
			format: 'anthropic-claude-v1',
			index: 0,
		};
		const chunks = [...reasoningCall.chunks!];
		chunks.splice(1, 0, {
			id: 'gen-fake-1',
			model: 'fake/model',
			object: 'chat.completion.chunk',
			choices: [
				{
					index: 0,
					delta: {
						role: 'assistant',
						content: '',
						reasoning: 'thinking',
						reasoning_details: [detail],
					},
					finish_reason: null,
				},
			],
		});
		const server = await start(({ index }) =>
			index === 0 ? { ...reasoningCall, chunks } : textReply('done'),
		);
		const { model } = await supplied(server.baseUrl, { options: { reasoningEffort: 'high' } });
		const bound = model.bindTools!([tool('upper')]);
		const turn = (await bound.invoke([new HumanMessage('go')])) as AIMessage;
		expect(turn.response_metadata.reasoning_details).toEqual([detail]);
		expect(turn.content).toEqual([{ type: 'reasoning', reasoning: 'thinking' }]);
		// The loopback fake is not OpenRouter: Chat Completions' own field.
		expect(server.requests[0].body.reasoning_effort).toBe('high');
		await bound.invoke([
			new HumanMessage('go'),
			turn,
			new ToolMessage({ tool_call_id: 'call_r', content: 'X' }),
		]);
		expect(server.requests[1].body.messages[1]).toMatchObject({
			role: 'assistant',
			reasoning: 'thinking',
			reasoning_details: [detail],
		});
	});

	it('streamed: reasoning_details of a tool turn survive the adapter (as a non_standard block) and go back with the results', async () => {
		const detail = {
			type: 'reasoning.text',
			text: 'plan',
			signature: 'sig-stream',
			format: 'anthropic-claude-v1',
			index: 0,
		};
		const call = toolCallReply([{ id: 'call_s', name: 'upper', arguments: { text: 'y' } }]);
		const chunks = [...call.chunks!];
		chunks.splice(1, 0, {
			id: 'gen-fake-1',
			model: 'fake/model',
			object: 'chat.completion.chunk',
			choices: [
				{
					index: 0,
					delta: { role: 'assistant', content: '', reasoning: 'plan', reasoning_details: [detail] },
					finish_reason: null,
				},
			],
		});
		const server = await start(({ index }) =>
			index === 0 ? { ...call, chunks } : textReply('done'),
		);
		const { model } = await supplied(server.baseUrl);
		const bound = model.bindTools!([tool('upper')]);
		let merged: AIMessageChunk | undefined;
		for await (const chunk of await bound.stream([new HumanMessage('go')]))
			merged = merged ? merged.concat(chunk) : chunk;
		expect(merged!.tool_calls).toEqual([
			{ type: 'tool_call', id: 'call_s', name: 'upper', args: { text: 'y' } },
		]);
		expect(merged!.text).toBe('');
		await bound.invoke([
			new HumanMessage('go'),
			merged!,
			new ToolMessage({ tool_call_id: 'call_s', content: 'Y' }),
		]);
		expect(server.requests[1].body.messages[1]).toEqual({
			role: 'assistant',
			content: null,
			reasoning_details: [detail],
			tool_calls: [
				{ id: 'call_s', type: 'function', function: { name: 'upper', arguments: '{"text":"y"}' } },
			],
		});
	});

	it('an API error reaches LangChain without the key', async () => {
		const server = await start(() => errorReply(401, `Invalid key ${apiKey}`));
		const { model } = await supplied(server.baseUrl);
		const error = (await model
			.invoke([new HumanMessage('hi')])
			.catch((caught: unknown) => caught)) as Error;
		expect(error).toBeInstanceOf(Error);
		expect(JSON.stringify({ ...error, text: `${error.message} ${error.stack}` })).not.toContain(
			apiKey,
		);
	});

	it('the native hook finds the model behind the adapter (also after bindTools), and only there', async () => {
		const server = await start(() => textReply('x'));
		const { model } = await supplied(server.baseUrl, {
			options: {
				temperature: 0.5,
				extraHeaders: '{"X-Trace":"header-secret-value"}',
				promptCaching: true,
			},
		});
		const native = toolbridgeNativeModelOf(model);
		expect(native).toEqual({
			connection: {
				baseUrl: server.baseUrl,
				apiKey,
				headers: { 'X-Trace': 'header-secret-value' },
				appName: 'n8n-nodes-toolbridge',
			},
			config: {
				model: 'test/model',
				server: 'openai-compatible',
				temperature: 0.5,
				promptCaching: true,
			},
			secrets: [apiKey, 'header-secret-value'],
		});
		expect(toolbridgeNativeModelOf(model.bindTools!([tool('upper')]))).toEqual(native);
		expect(toolbridgeNativeModelOf((model as unknown as { chatModel: unknown }).chatModel)).toEqual(
			native,
		);
		expect(toolbridgeNativeModelOf({ chatModel: {} })).toBeUndefined();
		expect(toolbridgeNativeModelOf('model')).toBeUndefined();
		// The key stays out of what prints or serializes.
		const { inspect } = await import('node:util');
		const inner = (model as unknown as { chatModel: unknown }).chatModel;
		expect(JSON.stringify(inner)).not.toContain(apiKey);
		expect(inspect(model, { depth: 8, showHidden: true })).not.toContain(apiKey);
	});

	it('an n8n without @n8n/ai-node-sdk gets a clear error', () => {
		const missing = () => {
			throw Object.assign(new Error("Cannot find module '@n8n/ai-node-sdk'"), {
				code: 'MODULE_NOT_FOUND',
			});
		};
		expect(() => loadAiNodeSdk(missing)).toThrow(
			expect.objectContaining({
				code: 'AI_NODE_SDK_UNAVAILABLE',
				message: expect.stringContaining('n8n 2.x'),
			}),
		);
	});

	it('the node turns an empty model into a NodeOperationError', async () => {
		const { context } = chatModelContext({
			baseUrl: 'http://127.0.0.1:9/v1',
			parameters: { model: { __rl: true, mode: 'id', value: ' ' } },
		});
		await expect(new ToolbridgeChatModel().supplyData.call(context, 0)).rejects.toThrow(
			/model is empty/,
		);
		await expect(supplyToolbridgeChatModel(context, 0, () => sdk)).rejects.toMatchObject({
			code: 'AGENT_CONFIGURATION',
		});
	});
});

describe('Toolbridge chat model on the SDK interface', () => {
	const native = (baseUrl: string) => ({
		connection: { baseUrl, apiKey, openRouter: true },
		config: { model: 'anthropic/claude-sonnet-4', promptCaching: true },
		secrets: [apiKey],
	});

	it('generate: text, reasoning, usage with cached and reasoning tokens, finish reason', async () => {
		const server = await start(() =>
			reasoningReply('Let me think.', 'The answer.', {
				usage: {
					prompt_tokens: 50,
					completion_tokens: 20,
					total_tokens: 70,
					cost: 0.001,
					prompt_tokens_details: { cached_tokens: 40 },
					completion_tokens_details: { reasoning_tokens: 5 },
				},
			}),
		);
		const model = createToolbridgeChatModel(sdk, native(server.baseUrl));
		const messages: Message[] = [
			{ role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
			{ role: 'user', content: [{ type: 'text', text: 'Question?' }] },
		];
		const result = await model.generate(messages, { temperature: 0, stopSequences: ['END'] });
		expect(result).toMatchObject({
			finishReason: 'stop',
			usage: {
				promptTokens: 50,
				completionTokens: 20,
				totalTokens: 70,
				inputTokenDetails: { cacheRead: 40 },
				outputTokenDetails: { reasoning: 5 },
				additionalMetadata: { cost: 0.001 },
			},
			message: {
				role: 'assistant',
				content: [
					{ type: 'reasoning', text: 'Let me think.' },
					{ type: 'text', text: 'The answer.' },
				],
			},
		});
		expect(result.providerMetadata?.reasoning_details).toHaveLength(1);
		// Prompt caching for an Anthropic model: a breakpoint on the system message.
		expect(server.requests[0].body).toMatchObject({
			temperature: 0,
			stop: ['END'],
			messages: [
				{
					role: 'system',
					content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
				},
				{ role: 'user', content: 'Question?' },
			],
		});
	});

	it('stream: text and reasoning deltas as they come, one delta per tool call, then finish with usage', async () => {
		const server = await start(() =>
			toolCallReply([{ id: 'c1', name: 'upper', arguments: { text: 'a' } }], {
				text: 'Calling now.',
			}),
		);
		const model = createToolbridgeChatModel(sdk, native(server.baseUrl)).withTools([
			{
				type: 'function',
				name: 'upper',
				inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
			},
		]);
		const chunks: StreamChunk[] = [];
		for await (const chunk of model.stream([
			{ role: 'user', content: [{ type: 'text', text: 'go' }] },
		]))
			chunks.push(chunk);
		expect(
			chunks
				.filter((chunk) => chunk.type === 'text-delta')
				.map((chunk) => (chunk as { delta: string }).delta)
				.join(''),
		).toBe('Calling now.');
		expect(chunks.filter((chunk) => chunk.type === 'tool-call-delta')).toEqual([
			{ type: 'tool-call-delta', id: 'c1', name: 'upper', argumentsDelta: '{"text":"a"}' },
		]);
		expect(chunks.at(-1)).toMatchObject({
			type: 'finish',
			finishReason: 'tool-calls',
			usage: { promptTokens: 12 },
		});
		expect(server.requests[0].body.tools).toEqual([
			{
				type: 'function',
				function: {
					name: 'upper',
					parameters: { type: 'object', properties: { text: { type: 'string' } } },
				},
			},
		]);
	});

	it('stream: a failing call throws, redacted', async () => {
		const server = await start(() => errorReply(403, `forbidden for ${apiKey}`));
		const model = createToolbridgeChatModel(sdk, native(server.baseUrl));
		const consume = async () => {
			for await (const _chunk of model.stream([
				{ role: 'user', content: [{ type: 'text', text: 'go' }] },
			]))
				void _chunk;
		};
		const error = (await consume().catch((caught: unknown) => caught)) as Error & {
			responseBody?: string;
		};
		expect(error).toMatchObject({ status: 403 });
		expect(`${error.message} ${error.stack} ${error.responseBody ?? ''}`).not.toContain(apiKey);
	});

	it('stream: breaking out early aborts the request', async () => {
		const server = await start(() => ({
			...textReply('one two three four five six', { deltaSize: 4 }),
			chunkDelayMs: 20,
		}));
		const model = createToolbridgeChatModel(sdk, native(server.baseUrl));
		for await (const chunk of model.stream([
			{ role: 'user', content: [{ type: 'text', text: 'go' }] },
		]))
			if (chunk.type === 'text-delta') break;
		await server.requests[0].closed;
	});
});
