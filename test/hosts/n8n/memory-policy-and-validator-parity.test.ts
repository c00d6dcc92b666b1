import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textReply, toolCallReply } from '../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../support/fake-chat-server-hooks';
import {
	executeOrchestrator,
	orchestratorContext,
	streamedText,
} from '../../support/orchestrator-context';

const start = fakeChatServerPerTest();

const upperTool = () =>
	new DynamicStructuredTool({
		name: 'upper',
		description: 'Upper-cases a text',
		schema: z.object({ text: z.string() }),
		func: async ({ text }) => text.toUpperCase(),
		metadata: { sourceNodeName: 'Upper' },
	});

/** A memory whose history fails to load or to save, as a Postgres memory with its database down does. */
function failingMemory(failOn: 'load' | 'save', reason = 'connect ECONNREFUSED 127.0.0.1:5432') {
	const history = new InMemoryChatMessageHistory();
	const down = () => Promise.reject(new Error(reason));
	return {
		history,
		memory: {
			chatHistory: {
				getMessages: failOn === 'load' ? down : () => history.getMessages(),
				addMessages:
					failOn === 'save' ? down : (messages: never[]) => history.addMessages(messages),
			},
		},
	};
}

describe('On Memory Error', () => {
	it.each(['full', 'validator'] as const)(
		'Continue (default), %s mode: a memory that cannot load → answer without history, a warning in the output, the debug log and n8n’s log',
		async (mode) => {
			const fake = await start(({ body }) =>
				mode === 'validator' || body.messages.length < 2
					? toolCallReply([{ id: 'c1', name: 'upper', arguments: { text: 'a' } }])
					: textReply('answered'),
			);
			const { memory } = failingMemory('load');
			const { context, warnings } = orchestratorContext({
				baseUrl: fake.baseUrl,
				tools: [upperTool()],
				memory,
				options: { debugLog: true },
				parameters: { mode },
			});
			const [[item]] = await executeOrchestrator(context);
			expect(item.json.warnings).toEqual([
				expect.stringMatching(
					/^Memory could not be loaded: connect ECONNREFUSED 127\.0\.0\.1:5432 — the run went on without the conversation history/,
				),
			]);
			expect(item.json.debugLog).toContainEqual(
				expect.stringMatching(/^\[WARN\] Memory could not be loaded/),
			);
			expect(warnings).toHaveLength(1);
			expect(fake.requests[0].body.messages).toEqual([{ role: 'user', content: 'hello' }]);
		},
	);

	it('Continue: a memory that cannot save → the answer with a warning', async () => {
		const fake = await start(() => textReply('the answer'));
		const { memory } = failingMemory('save');
		const { context } = orchestratorContext({ baseUrl: fake.baseUrl, memory });
		const [[item]] = await executeOrchestrator(context);
		expect(item.json.output).toBe('the answer');
		expect(item.json.warnings).toEqual([
			expect.stringMatching(
				/^Memory could not save this turn: connect ECONNREFUSED .* the next turn will not remember it/,
			),
		]);
	});

	it('Continue: a memory sub-node that cannot even be reached (its supplyData throws) → run without it', async () => {
		const fake = await start(() => textReply('still here'));
		const { context } = orchestratorContext({
			baseUrl: fake.baseUrl,
			memory: () => {
				throw new Error('password authentication failed for user "n8n"');
			},
		});
		const [[item]] = await executeOrchestrator(context);
		expect(item.json.output).toBe('still here');
		expect(item.json.warnings).toEqual([
			expect.stringMatching(/^Memory could not be reached: password authentication failed/),
		]);
	});

	it.each(['load', 'save'] as const)(
		'Fail: a memory that cannot %s fails the item with the memory’s error',
		async (failOn) => {
			const fake = await start(() => textReply('unused'));
			const { memory } = failingMemory(failOn, 'relation "n8n_chat_histories" does not exist');
			const { context } = orchestratorContext({
				baseUrl: fake.baseUrl,
				memory,
				options: { onMemoryError: 'fail' },
			});
			await expect(executeOrchestrator(context)).rejects.toThrow(/n8n_chat_histories/);
		},
	);

	it('a memory warning never carries the API key', async () => {
		const fake = await start(() => textReply('ok'));
		const { context } = orchestratorContext({
			baseUrl: fake.baseUrl,
			memory: () => {
				throw new Error('upstream said: bad key sk-or-v1-0123456789abcdef0123456789abcdef');
			},
		});
		const [[item]] = await executeOrchestrator(context);
		expect(JSON.stringify(item.json)).not.toContain('sk-or-v1-0123456789abcdef0123456789abcdef');
		expect(item.json.warnings).toEqual([expect.stringContaining('[REDACTED]')]);
	});
});

describe('validator mode parity with full mode', () => {
	const samplingOptions = {
		temperature: 0.2,
		maxTokens: 300,
		topP: 0.9,
		topK: 20,
		frequencyPenalty: 0.1,
		presencePenalty: 0.3,
		seed: 7,
		stopSequences: 'END',
		reasoningEffort: 'low',
		fallbackModels: 'backup/model',
		providerOrder: 'Groq',
		providerOptions: '{"transforms":["middle-out"]}',
	};
	const samplingFields = {
		temperature: 0.2,
		max_tokens: 300,
		top_p: 0.9,
		top_k: 20,
		frequency_penalty: 0.1,
		presence_penalty: 0.3,
		seed: 7,
		stop: ['END'],
		// The fake is not OpenRouter: Chat Completions' own reasoning field.
		reasoning_effort: 'low',
		// `models` and `provider` go to OpenRouter only (this fake is not): both modes drop them alike.
		transforms: ['middle-out'],
	};

	it('sends every sampling and request option the full loop sends', async () => {
		const fake = await start(({ body }) =>
			body.tool_choice === undefined && body.messages.at(-1).role === 'tool'
				? textReply('done')
				: toolCallReply([{ id: 'v1', name: 'upper', arguments: { text: 'x' } }]),
		);
		for (const mode of ['full', 'validator']) {
			const { context } = orchestratorContext({
				baseUrl: fake.baseUrl,
				tools: [upperTool()],
				options: samplingOptions,
				parameters: { mode },
			});
			await executeOrchestrator(context);
		}
		const [full, validator] = [fake.requests[0].body, fake.requests.at(-1)!.body];
		expect(full).toMatchObject(samplingFields);
		expect(validator).toMatchObject(samplingFields);
		for (const body of [full, validator]) expect(body).not.toHaveProperty('models');
	});

	it('loads the conversation from memory, saves the accepted call and its result, and streams its debug log', async () => {
		const fake = await start(() =>
			toolCallReply([{ id: 'v1', name: 'upper', arguments: { text: 'memory' } }]),
		);
		const history = new InMemoryChatMessageHistory();
		await history.addUserMessage('earlier question');
		await history.addAIMessage('earlier answer');
		const { context, chunks } = orchestratorContext({
			baseUrl: fake.baseUrl,
			tools: [upperTool()],
			memory: { chatHistory: history },
			streaming: true,
			options: { debugLog: true },
			parameters: { mode: 'validator' },
		});
		const [[item]] = await executeOrchestrator(context);
		expect(item.json.result).toBe('MEMORY');
		expect(fake.requests[0].body.messages.slice(0, 2)).toEqual([
			{ role: 'user', content: 'earlier question' },
			{ role: 'assistant', content: 'earlier answer' },
		]);
		const saved = await history.getMessages();
		expect(saved.map((message) => message.getType())).toEqual([
			'human',
			'ai',
			'human',
			'ai',
			'tool',
		]);
		expect((saved[4] as unknown as { tool_call_id: string; content: string }).tool_call_id).toBe(
			'v1',
		);
		expect(streamedText(chunks)).toContain('[DEBUG]');
	});
});
