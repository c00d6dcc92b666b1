import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadMemoryHistory, saveToMemory } from '../../src/langchain/chat-memory';
import { createChatModelCaller } from '../../src/agent/create-chat-model-caller';
import { runAgent } from '../../src/agent/run-agent';
import { textReply, toolCallReply } from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';
import { addTool } from '../agent/test-tools';

const serve = fakeChatServerPerTest();

describe('chat memory', () => {
	it('round-trips real tool-call messages through a LangChain chat history', async () => {
		const history = new InMemoryChatMessageHistory();
		const server = await serve(({ index }) => {
			if (index === 0)
				return toolCallReply([{ id: 'call_add', name: 'add', arguments: { a: 2, b: 3 } }], {
					text: 'Let me add.',
				});
			if (index === 1) return textReply('It is 5.');
			return textReply('You asked about 2 + 3; I used the add tool.');
		});
		const callModel = createChatModelCaller({ baseUrl: server.baseUrl, retry: { maxRetries: 0 } });

		const first = await runAgent({
			input: {
				config: { model: 'm' },
				prompt: 'What is 2 + 3?',
				history: await loadMemoryHistory(history),
			},
			tools: [addTool()],
			callModel,
		});
		await saveToMemory(history, first.state.messages.slice(first.state.turnStart));

		const saved = await history.getMessages();
		expect(saved.map((message) => message.getType())).toEqual(['human', 'ai', 'tool', 'ai']);
		const call = saved[1] as AIMessage;
		expect(call.content).toBe('Let me add.');
		expect(call.tool_calls).toEqual([
			{ id: 'call_add', name: 'add', args: { a: 2, b: 3 }, type: 'tool_call' },
		]);
		expect((saved[2] as ToolMessage).tool_call_id).toBe('call_add');
		expect(saved[2].content).toBe('{"sum":5}');
		expect(saved[3].content).toBe('It is 5.');
		expect(saved.some((message) => String(message.content).includes('[Used tools'))).toBe(false);

		await runAgent({
			input: {
				config: { model: 'm', systemMessage: 'sys' },
				prompt: 'What did you do?',
				history: await loadMemoryHistory(history),
			},
			tools: [addTool()],
			callModel,
		});
		expect(server.requests[2].body.messages).toEqual([
			{ role: 'system', content: 'sys' },
			{ role: 'user', content: 'What is 2 + 3?' },
			{
				role: 'assistant',
				content: 'Let me add.',
				tool_calls: [
					{
						id: 'call_add',
						type: 'function',
						function: { name: 'add', arguments: '{"a":2,"b":3}' },
					},
				],
			},
			{ role: 'tool', tool_call_id: 'call_add', content: '{"sum":5}' },
			{ role: 'assistant', content: 'It is 5.' },
			{ role: 'user', content: 'What did you do?' },
		]);
	});

	it('keeps reasoning_details and content null through memory', async () => {
		const history = new InMemoryChatMessageHistory();
		const details = [{ type: 'reasoning.encrypted', data: 'b64==', index: 0 }];
		await saveToMemory(history, [
			{ role: 'user', content: 'q' },
			{
				role: 'assistant',
				content: null,
				reasoning_details: details,
				tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{"k":1}' } }],
			},
			{ role: 'tool', tool_call_id: 'x', content: 'r' },
			{ role: 'assistant', content: 'a' },
		]);
		const loaded = await loadMemoryHistory(history);
		expect(loaded[1]).toEqual({
			role: 'assistant',
			content: null,
			reasoning_details: details,
			tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{"k":1}' } }],
		});
	});

	it('drops a tool message whose call fell out of a window memory', async () => {
		const history = new InMemoryChatMessageHistory();
		await history.addMessages([
			new HumanMessage('q'),
			new AIMessage({ content: '', tool_calls: [{ id: 'c', name: 'f', args: {} }] }),
			new ToolMessage({ content: 'r', tool_call_id: 'c' }),
			new AIMessage('answer'),
		]);
		// A window memory the way LangChain's BufferWindowMemory loads it: the last k*2 messages.
		const windowMemory = {
			memoryKey: 'chat_history',
			chatHistory: history,
			loadMemoryVariables: async () => ({
				chat_history: ((await history.getMessages()) as BaseMessage[]).slice(-2),
			}),
		};
		expect(await loadMemoryHistory(windowMemory)).toEqual([
			{ role: 'assistant', content: 'answer' },
		]);
	});

	it("reads LangChain's BufferWindowMemory (n8n's window memories) as its last k whole turns", async () => {
		// The class n8n's Simple, Postgres, Redis … memories give the agent.
		const fromN8n = createRequire(require.resolve('@n8n/n8n-nodes-langchain/package.json'));
		const { BufferWindowMemory } = fromN8n('@langchain/classic/memory') as {
			BufferWindowMemory: new (fields: object) => {
				k: number;
				chatHistory: InMemoryChatMessageHistory;
				loadMemoryVariables(values: object): Promise<Record<string, unknown>>;
			};
		};
		const memory = new BufferWindowMemory({
			k: 2,
			returnMessages: true,
			memoryKey: 'chat_history',
		});
		const toolTurn = (turn: string) => [
			new HumanMessage(`compute ${turn}`),
			new AIMessage({
				content: '',
				tool_calls: ['a', 'b', 'c'].map((id) => ({ id: `${turn}${id}`, name: 'f', args: {} })),
			}),
			...['a', 'b', 'c'].map(
				(id) => new ToolMessage({ content: `r${id}`, tool_call_id: `${turn}${id}` }),
			),
			new AIMessage(`answer ${turn}`),
		];
		await memory.chatHistory.addMessages([
			...toolTurn('1'),
			new HumanMessage('hi'),
			new AIMessage('hello'),
		]);
		// LangChain's own window: the last 2 × 2 messages, starting inside turn 1's tool round.
		const window = (await memory.loadMemoryVariables({})).chat_history as BaseMessage[];
		expect(window.map((message) => message.getType())).toEqual(['tool', 'ai', 'human', 'ai']);

		const loaded = await loadMemoryHistory(memory);
		expect(loaded.map((message) => message.role)).toEqual([
			'user',
			'assistant',
			'tool',
			'tool',
			'tool',
			'assistant',
			'user',
			'assistant',
		]);
		expect(loaded[1]).toMatchObject({ tool_calls: [{ id: '1a' }, { id: '1b' }, { id: '1c' }] });

		// A third turn: the window holds turns 2 and 3, whole.
		await memory.chatHistory.addMessages(toolTurn('3'));
		expect((await loadMemoryHistory(memory)).map((message) => message.role)).toEqual([
			'user',
			'assistant',
			'user',
			'assistant',
			'tool',
			'tool',
			'tool',
			'assistant',
		]);
	});
});
