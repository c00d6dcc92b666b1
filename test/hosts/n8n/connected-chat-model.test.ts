import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import {
	createLangChainModelCaller,
	langChainToolChoice,
	turnFrom,
	type LangChainChatModelLike,
} from '../../../src/langchain/langchain-model-caller';
import { ChatTimeoutError } from '../../../src/errors/chat-timeout-error';
import { ChatAbortedError } from '../../../src/errors/chat-aborted-error';
import { AgentConfigurationError } from '../../../src/errors/agent-configuration-error';
import { textReply, toolCallReply } from '../../support/fake-chat-server';
import { hashTool, sha256 } from '../../support/langchain-tools';
import { fakeChatServerPerTest } from '../../support/fake-chat-server-hooks';
import {
	executeOrchestrator as executeNode,
	orchestratorContext,
	streamedText,
	type OrchestratorContextOptions,
} from '../../support/orchestrator-context';

const start = fakeChatServerPerTest();

/** n8n's OpenAI Chat Model sub-node hands its consumer a ChatOpenAI like this one (Chat Completions, streaming usage). */
const openAiModel = (baseUrl: string) =>
	new ChatOpenAI({
		model: 'gpt-4o-mini',
		apiKey: 'sk-connected-model-key',
		configuration: { baseURL: baseUrl },
		maxRetries: 0,
	});

/** A node context with no credential set: a connected model must need none. */
const nodeContext = (options: Omit<OrchestratorContextOptions, 'credentials'>) =>
	orchestratorContext({
		items: [{ chatInput: 'hash "toolbridge"' }],
		...options,
		parameters: { model: 'node/own-model', ...options.parameters },
		credentials: null,
	});

describe('a connected chat model (real ChatOpenAI at a loopback Chat Completions server)', () => {
	it('runs the loop through it: tools bound, ids kept both ways, usage summed; the node credential is never read', async () => {
		const fake = await start(({ index, body }) => {
			if (index === 0)
				return toolCallReply(
					[{ id: 'call_lc_1', name: 'hash', arguments: { text: 'toolbridge' } }],
					{ usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 } },
				);
			const toolMessage = body.messages.find(
				(message: { role: string }) => message.role === 'tool',
			);
			return textReply(`The hash is ${toolMessage.content}`, {
				usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 },
			});
		});
		const { context, credentialReads } = nodeContext({
			model: openAiModel(fake.baseUrl),
			tools: [hashTool()],
			options: { returnIntermediateSteps: true },
		});
		const [[item]] = await executeNode(context);

		expect(item.json.output).toBe(`The hash is ${sha256('toolbridge')}`);
		expect(credentialReads).toEqual([]);
		const [first, second] = fake.requests.map((request) => request.body);
		expect(first.model).toBe('gpt-4o-mini');
		expect(first.stream).toBe(true);
		expect(first.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
			'hash',
		]);
		expect(first.tools[0].function.parameters.properties).toHaveProperty('text');
		const assistant = second.messages.find(
			(message: { role: string }) => message.role === 'assistant',
		);
		expect(assistant.tool_calls[0]).toMatchObject({ id: 'call_lc_1', function: { name: 'hash' } });
		expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual({ text: 'toolbridge' });
		expect(
			second.messages.find((message: { role: string }) => message.role === 'tool'),
		).toMatchObject({ tool_call_id: 'call_lc_1', content: sha256('toolbridge') });
		expect(item.json.usage).toMatchObject({
			promptTokens: 41,
			completionTokens: 14,
			totalTokens: 55,
		});
		expect(item.json.steps).toEqual([
			expect.objectContaining({ tool: 'hash', toolCallId: 'call_lc_1', isError: false }),
		]);
		// The node's own model id is not what was asked for.
		expect(JSON.stringify(fake.requests.map((request) => request.body))).not.toContain(
			'node/own-model',
		);
	});

	it('streams its text to n8n chat and saves real tool-call messages to memory', async () => {
		const fake = await start(({ index }) =>
			index === 0
				? toolCallReply([{ id: 'call_m', name: 'hash', arguments: { text: 'a' } }])
				: textReply('done and saved'),
		);
		const history = new InMemoryChatMessageHistory();
		const { context, chunks } = nodeContext({
			model: openAiModel(fake.baseUrl),
			tools: [hashTool()],
			memory: { chatHistory: history },
			streaming: true,
			options: { debugLog: true },
		});
		const [[item]] = await executeNode(context);
		expect(streamedText(chunks)).toContain('done and saved');
		expect(item.json.debugLog).toContainEqual(
			"[DEBUG] Model: gpt-4o-mini, the connected chat model, through LangChain; the node's own credential, Model and model options are not used",
		);
		const saved = await history.getMessages();
		expect(saved.map((message) => message.getType())).toEqual(['human', 'ai', 'tool', 'ai']);
		expect((saved[2] as unknown as { tool_call_id: string }).tool_call_id).toBe('call_m');
	});

	it('asks for a JSON answer with a forced final_answer tool (Output Format json), not response_format', async () => {
		const fake = await start(({ body }) =>
			body.tools?.some(
				(tool: { function: { name: string } }) => tool.function.name === 'final_answer',
			)
				? toolCallReply([{ id: 'call_f', name: 'final_answer', arguments: { city: 'Paris' } }])
				: textReply('It is Paris.'),
		);
		const schema = JSON.stringify({
			type: 'object',
			properties: { city: { type: 'string' } },
			required: ['city'],
		});
		const { context } = nodeContext({
			model: openAiModel(fake.baseUrl),
			options: { outputFormat: 'json', outputSchema: schema },
		});
		const [[item]] = await executeNode(context);
		expect(item.json.output).toEqual({ city: 'Paris' });
		expect(fake.requests.at(-1)?.body.tool_choice).toMatchObject({
			function: { name: 'final_answer' },
		});
		expect(fake.requests.some((request) => request.body.response_format !== undefined)).toBe(false);
	});

	it('keeps the reasoning the server streams (reasoning_content) as the turn reasoning', async () => {
		// ChatOpenAI keeps DeepSeek-style `reasoning_content` deltas (OpenRouter's `reasoning` field it drops).
		const chunk = (delta: object, finish: string | null = null) => ({
			id: 'r',
			object: 'chat.completion.chunk',
			created: 1,
			model: 'deepseek-reasoner',
			choices: [{ index: 0, delta, finish_reason: finish }],
		});
		const fake = await start(() => ({
			chunks: [
				chunk({ role: 'assistant', reasoning_content: 'thinking ' }),
				chunk({ reasoning_content: 'it over' }),
				chunk({ content: 'answer' }),
				chunk({}, 'stop'),
			],
		}));
		const caller = createLangChainModelCaller(
			openAiModel(fake.baseUrl) as unknown as LangChainChatModelLike,
		);
		const parts: string[] = [];
		const turn = await caller(
			{ model: 'x', messages: [{ role: 'user', content: 'q' }] },
			{ onPart: (part) => parts.push(part.type) },
		);
		expect(turn.text).toBe('answer');
		expect(turn.reasoning).toBe('thinking it over');
		expect(parts).toContain('text-delta');
		expect(parts).toContain('reasoning-delta');
		expect(turn.finishReason).toBe('stop');
	});
});

describe('turnFrom: a LangChain message → the loop turn', () => {
	it('maps tool calls (ids kept, missing ids made), broken arguments, usage with cache and reasoning tokens', () => {
		const message = new AIMessage({
			content: [
				{ type: 'thinking', thinking: 'plan' },
				{ type: 'text', text: 'Let me check.' },
			],
			tool_calls: [
				{ id: 'toolu_1', name: 'hash', args: { text: 'a' }, type: 'tool_call' },
				{ id: '', name: 'hash', args: { text: 'b' }, type: 'tool_call' },
			],
			invalid_tool_calls: [
				{
					id: 'toolu_3',
					name: 'hash',
					args: '{"text": ',
					error: 'Malformed args',
					type: 'invalid_tool_call',
				},
			],
			usage_metadata: {
				input_tokens: 100,
				output_tokens: 20,
				total_tokens: 120,
				input_token_details: { cache_read: 80 },
				output_token_details: { reasoning: 7 },
			},
			response_metadata: { stop_reason: 'tool_use', model: 'claude-sonnet-4-5' },
		});
		expect(turnFrom(message)).toEqual({
			text: 'Let me check.',
			reasoning: 'plan',
			reasoningDetails: [],
			toolCalls: [
				{
					toolCallId: 'toolu_1',
					name: 'hash',
					argumentsText: '{"text":"a"}',
					arguments: { text: 'a' },
				},
				{
					toolCallId: 'call_1',
					name: 'hash',
					argumentsText: '{"text":"b"}',
					arguments: { text: 'b' },
				},
				{
					toolCallId: 'toolu_3',
					name: 'hash',
					argumentsText: '{"text": ',
					error: 'Malformed args',
				},
			],
			finishReason: 'tool-calls',
			rawFinishReason: 'tool_use',
			usage: {
				promptTokens: 100,
				completionTokens: 20,
				totalTokens: 120,
				cachedTokens: 80,
				reasoningTokens: 7,
			},
			model: 'claude-sonnet-4-5',
		});
	});

	it.each([
		['stop', 'stop'],
		['end_turn', 'stop'],
		['max_tokens', 'length'],
		['length', 'length'],
		['content_filter', 'content-filter'],
		['something_new', 'other'],
	])('finish reason %s → %s', (raw, expected) => {
		expect(
			turnFrom(new AIMessageChunk({ content: 'x', response_metadata: { finish_reason: raw } }))
				.finishReason,
		).toBe(expected);
	});

	it('maps tool choice to LangChain’s provider-neutral form', () => {
		expect(langChainToolChoice(undefined)).toBeUndefined();
		expect(langChainToolChoice('required')).toBe('any');
		expect(langChainToolChoice('none')).toBe('none');
		expect(langChainToolChoice({ type: 'function', function: { name: 'hash' } })).toBe('hash');
	});
});

describe('the connected model’s limits and failures', () => {
	const silentModel = (onSignal?: (signal: AbortSignal) => void): LangChainChatModelLike => ({
		model: 'silent',
		stream: async (_messages, options) => {
			onSignal?.(options?.signal as AbortSignal);
			return {
				[Symbol.asyncIterator]: () => ({
					next: () => new Promise<IteratorResult<never>>(() => undefined),
				}),
			};
		},
	});

	it('a model that sends nothing is cut off by the first-token limit, its call aborted', async () => {
		let seen: AbortSignal | undefined;
		const caller = createLangChainModelCaller(
			silentModel((signal) => (seen = signal)),
			{ firstTokenTimeoutMs: 30 },
		);
		const error = await caller(
			{ model: 'x', messages: [{ role: 'user', content: 'q' }] },
			{},
		).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(ChatTimeoutError);
		expect((error as ChatTimeoutError).phase).toBe('first-token');
		expect(seen?.aborted).toBe(true);
	});

	it('the caller’s abort ends the wait with ChatAbortedError', async () => {
		const controller = new AbortController();
		const caller = createLangChainModelCaller(silentModel(), {
			firstTokenTimeoutMs: 0,
			totalTimeoutMs: 0,
		});
		const pending = caller(
			{ model: 'x', messages: [{ role: 'user', content: 'q' }] },
			{ signal: controller.signal },
		);
		controller.abort();
		await expect(pending).rejects.toBeInstanceOf(ChatAbortedError);
	});

	it('tools with a model that cannot bind tools: a configuration error naming the model', async () => {
		const caller = createLangChainModelCaller(silentModel());
		const request = {
			model: 'x',
			messages: [{ role: 'user' as const, content: 'q' }],
			tools: [
				{ type: 'function' as const, function: { name: 't', parameters: { type: 'object' } } },
			],
		};
		const error = await caller(request, {}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(AgentConfigurationError);
		expect((error as Error).message).toMatch(/\(silent\) cannot call tools/);
	});

	it('a connected node that supplies no chat model is named as such', async () => {
		const { context } = nodeContext({ model: { invoke: () => undefined } });
		await expect(executeNode(context)).rejects.toThrow(/does not supply a chat model/);
	});
});

describe('no model connected and no credential', () => {
	it('says what is missing: a credential or a Chat Model', async () => {
		const { context } = orchestratorContext({ credentials: null });
		await expect(executeNode(context)).rejects.toThrow(
			/No OpenRouter credential is set and no Chat Model is connected/,
		);
	});
});
