/**
 * n8n's Simple Memory on the agent's Memory input in the standalone host, through n8n's own
 * node code: two runs with one session id continue one conversation (the second model request
 * holds the first turn, tool calls and results as real messages); the conversation lives in
 * the conversation store, so a second process with the store continues it; a window of 2
 * after three parallel tool calls gives a valid message list; two runs on one session at once
 * are serialized, or the second refused with SESSION_BUSY. Only the model is faked (a
 * loopback Chat Completions server).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { INode, INodeParameters } from 'n8n-workflow';
import { StandaloneHost } from '../../../../src/hosts/standalone/standalone-host';
import { inProcessConversationStore } from '../../../../src/hosts/standalone/conversation-store';
import { ToolbridgeError } from '../../../../src/errors/toolbridge-error';
import { textReply } from '../../../support/fake-chat-server';
import { fakeChatServerPerTest } from '../../../support/fake-chat-server-hooks';
import { langChainNode } from '../sub-nodes/sub-node-workflows';
import { memoryRunner, memoryWorkflow, parallelCalls } from './memory-runs';
import { assertValidToolTurns, conversationOf } from './message-list';

const serve = fakeChatServerPerTest();
let host: StandaloneHost;
beforeAll(async () => {
	host = await StandaloneHost.create({ env: {} });
});

const run = memoryRunner(() => host);

const simpleMemory = (parameters: INodeParameters = {}): INode =>
	langChainNode('Simple Memory', 'memoryBufferWindow', 1.3, parameters);

describe('Simple Memory in the standalone host', () => {
	it('two runs with one session id: the second request holds the first turn, tool calls included', async () => {
		const server = await serve(parallelCalls);
		const workflow = memoryWorkflow(simpleMemory());
		const store = inProcessConversationStore();
		const first = await run(workflow, server.baseUrl, 'compute three sums', {
			sessionId: 'user-1',
			conversationStore: store,
		});
		expect(first.mode === 'full' && first.memory).toMatchObject({
			node: 'Simple Memory',
			sessionId: 'user-1',
			notes: [],
		});
		await run(workflow, server.baseUrl, 'what did you do?', {
			sessionId: 'user-1',
			conversationStore: store,
		});
		const second = server.requests.at(-1)!.body.messages;
		expect(conversationOf(second)).toEqual([
			'user: compute three sums',
			'assistant: calls c1-0 c2-0 c3-0',
			'tool c1-0: 5',
			'tool c2-0: 20',
			'tool c3-0: 9',
			'assistant: answer 1',
			'user: what did you do?',
		]);
		assertValidToolTurns(second);

		// Another session of the same workflow starts empty.
		await run(workflow, server.baseUrl, 'hello', { sessionId: 'user-2', conversationStore: store });
		expect(conversationOf(server.requests.at(-1)!.body.messages)).toEqual(['user: hello']);
	});

	it('the conversation lives in the store: another process sharing it continues, another store does not', async () => {
		const server = await serve((request) => textReply(`answer ${request.index}`));
		const workflow = memoryWorkflow(simpleMemory());
		const storeA = inProcessConversationStore();
		await run(workflow, server.baseUrl, 'my name is Ada', {
			sessionId: 's',
			conversationStore: storeA,
		});
		const key = `simple-memory:${workflow.id}:s`;
		const saved = JSON.parse((await storeA.get(key))!) as unknown[];
		expect(saved).toEqual([
			{ role: 'user', content: 'my name is Ada' },
			{ role: 'assistant', content: 'answer 0' },
		]);

		// A fresh store (this process's Simple Memory buffer notwithstanding) has no conversation.
		await run(workflow, server.baseUrl, 'who am I?', {
			sessionId: 's',
			conversationStore: inProcessConversationStore(),
		});
		expect(conversationOf(server.requests.at(-1)!.body.messages)).toEqual(['user: who am I?']);

		// A store holding the session's messages (as another replica wrote them) continues it.
		const storeB = inProcessConversationStore();
		await storeB.set(key, JSON.stringify(saved));
		await run(workflow, server.baseUrl, 'who am I, again?', {
			sessionId: 's',
			conversationStore: storeB,
		});
		expect(conversationOf(server.requests.at(-1)!.body.messages)).toEqual([
			'user: my name is Ada',
			'assistant: answer 0',
			'user: who am I, again?',
		]);
	});

	it('a window of 2 after three parallel tool calls keeps whole turns: a valid message list', async () => {
		const server = await serve(parallelCalls);
		const workflow = memoryWorkflow(simpleMemory({ contextWindowLength: 2 }));
		const store = inProcessConversationStore();
		const turn = (prompt: string) =>
			run(workflow, server.baseUrl, prompt, { sessionId: 'w', conversationStore: store });
		await turn('compute turn one');
		await turn('turn two');
		// LangChain's window (the last 2 × 2 messages) would start at a tool message here.
		const third = server.requests.at(-1)!.body.messages;
		expect(conversationOf(third)).toEqual([
			'user: compute turn one',
			'assistant: calls c1-0 c2-0 c3-0',
			'tool c1-0: 5',
			'tool c2-0: 20',
			'tool c3-0: 9',
			'assistant: answer 1',
			'user: turn two',
		]);
		assertValidToolTurns(third);
		await turn('turn three');
		await turn('turn four');
		const fifth = server.requests.at(-1)!.body.messages;
		expect(conversationOf(fifth)).toEqual([
			'user: turn two',
			'assistant: answer 2',
			'user: turn three',
			'assistant: answer 3',
			'user: turn four',
		]);
		// What the store keeps is bounded by the window too: the last 2 turns.
		const stored = JSON.parse((await store.get(`simple-memory:${workflow.id}:w`))!) as Array<{
			role: string;
		}>;
		expect(stored.filter((message) => message.role === 'user')).toHaveLength(2);
	});

	it('two runs on one session at once are serialized: the later one sees the earlier turn', async () => {
		const server = await serve(async (request) => {
			await new Promise((resolve) => setTimeout(resolve, 150));
			return textReply(`answer ${request.index}`);
		});
		const workflow = memoryWorkflow(simpleMemory());
		const store = inProcessConversationStore();
		await Promise.all([
			run(workflow, server.baseUrl, 'first', { sessionId: 'c', conversationStore: store }),
			run(workflow, server.baseUrl, 'second', { sessionId: 'c', conversationStore: store }),
		]);
		const [one, two] = server.requests.map((request) => conversationOf(request.body.messages));
		expect(one).toHaveLength(1);
		expect(two).toEqual([one[0], 'assistant: answer 0', expect.stringMatching(/^user: /)]);
		expect(two[2]).not.toBe(one[0]);
	});

	it('a run on a session another run holds longer than the wait is refused with SESSION_BUSY', async () => {
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const server = await serve(async (request) => {
			if (request.index === 0) await held;
			return textReply(`answer ${request.index}`);
		});
		const workflow = memoryWorkflow(simpleMemory());
		const store = inProcessConversationStore();
		const first = run(workflow, server.baseUrl, 'slow', {
			sessionId: 'b',
			conversationStore: store,
		});
		await new Promise((resolve) => setTimeout(resolve, 100));
		const error = await run(workflow, server.baseUrl, 'impatient', {
			sessionId: 'b',
			conversationStore: store,
		}).catch((caught: unknown) => caught);
		release();
		await first;
		expect(ToolbridgeError.isInstance(error) && error.code).toBe('SESSION_BUSY');
		expect((error as Error).message).toContain('Session "b" is busy');
		// The refused run reached neither the model nor the memory.
		expect(server.requests).toHaveLength(1);
		await run(workflow, server.baseUrl, 'after', { sessionId: 'b', conversationStore: store });
		expect(conversationOf(server.requests.at(-1)!.body.messages)).toEqual([
			'user: slow',
			'assistant: answer 0',
			'user: after',
		]);
	});

	it('without a session id the run is one-off and says why the memory was not used', async () => {
		const server = await serve((request) => textReply(`answer ${request.index}`));
		const workflow = memoryWorkflow(simpleMemory());
		const first = await run(workflow, server.baseUrl, 'hi');
		await run(workflow, server.baseUrl, 'again');
		expect(conversationOf(server.requests[1].body.messages)).toEqual(['user: again']);
		expect(first.mode === 'full' && first.memory?.notes[0]).toMatch(
			/Memory "Simple Memory" was not used: the run has no session id \(its Session ID reads \$json\.sessionId\)/,
		);
	});

	it('a custom session key expression keys the conversation without a session id', async () => {
		const server = await serve((request) => textReply(`answer ${request.index}`));
		const workflow = memoryWorkflow(
			simpleMemory({ sessionIdType: 'customKey', sessionKey: '={{ "team-" + "blue" }}' }),
		);
		const first = await run(workflow, server.baseUrl, 'one');
		await run(workflow, server.baseUrl, 'two');
		expect(first.mode === 'full' && first.memory?.sessionId).toBe('team-blue');
		expect(conversationOf(server.requests[1].body.messages)).toEqual([
			'user: one',
			'assistant: answer 0',
			'user: two',
		]);
	});

	it("a Session Key and prompt that read a trigger which does not run here: the caller's session id keys it, the user's text is the message", async () => {
		const server = await serve((request) => textReply(`answer ${request.index}`));
		const workflow = memoryWorkflow(
			simpleMemory({
				sessionIdType: 'customKey',
				sessionKey: "={{ $('Telegram Trigger').item.json.message.chat.id }}",
			}),
		);
		const agent = workflow.nodes.find((node) => node.name === 'AI Agent')!;
		agent.parameters = {
			...agent.parameters,
			promptType: 'define',
			text: "={{ $('Telegram Trigger').item.json.message.text }}",
		};
		workflow.nodes.push({
			id: 'trigger',
			name: 'Telegram Trigger',
			type: 'n8n-nodes-base.telegramTrigger',
			typeVersion: 1.2,
			position: [0, 0],
			parameters: {},
		});
		const store = inProcessConversationStore();
		const first = await run(workflow, server.baseUrl, 'my name is Ada', {
			sessionId: 'chat-7',
			conversationStore: store,
		});
		await run(workflow, server.baseUrl, 'who am I?', {
			sessionId: 'chat-7',
			conversationStore: store,
		});
		expect(first.mode === 'full' && first.memory).toMatchObject({ sessionId: 'chat-7', notes: [] });
		expect(conversationOf(server.requests[1].body.messages)).toEqual([
			'user: my name is Ada',
			'assistant: answer 0',
			'user: who am I?',
		]);
	});
});
