/**
 * n8n's DeepSeek Chat Model in the standalone host, through its own node code: its
 * `supplyData` builds LangChain's ChatOpenAI on the credential's URL (a loopback fake speaking
 * OpenAI's Chat Completions stream), and our loop drives it — the tool call, the Code Tool's
 * run, the answer, usage, the node's own options.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../../support/fake-chat-server';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

let fake: FakeChatServer;
beforeAll(async () => {
	fake = await startFakeChatServer({
		respond: ({ body }) => {
			const tool = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			return tool
				? textReply(`The tool said ${tool.content}`, { model: 'deepseek-chat' })
				: toolCallReply([{ name: 'Shout', arguments: { input: 'hello' } }], {
						model: 'deepseek-chat',
					});
		},
	});
});
afterAll(() => fake.close());

const workflow = () =>
	modelAgentWorkflow(
		modelNode(
			'DeepSeek Chat Model',
			'lmChatDeepSeek',
			1,
			{ model: 'deepseek-chat', options: { temperature: 0.3, maxTokens: 321 } },
			{ deepSeekApi: { id: 'd', name: 'DeepSeek account' } },
		),
	);

describe("n8n's DeepSeek Chat Model through its own node code", () => {
	it('asks for the tool, the tool runs once, the answer and usage come back', async () => {
		const run = await runWorkflowAgent(workflow(), {
			prompt: 'Shout hello',
			credentials: { 'DeepSeek account': { apiKey: 'sk-deepseek-test-1234', url: fake.baseUrl } },
			env: {},
		});
		expect(run.mode).toBe('full');
		if (run.mode !== 'full') return;
		expect(run.result.output).toBe('The tool said SHOUTED: HELLO');
		expect(run.modelNode).toEqual({
			name: 'DeepSeek Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatDeepSeek',
		});
		expect(run.baseUrl).toBeUndefined();
		const [first, second] = fake.requests.map((request) => request.body);
		expect(fake.requests).toHaveLength(2);
		expect(fake.requests[0].path).toBe('/v1/chat/completions');
		expect(fake.requests[0].headers.authorization).toBe('Bearer sk-deepseek-test-1234');
		expect(first).toMatchObject({
			model: 'deepseek-chat',
			temperature: 0.3,
			max_tokens: 321,
			stream: true,
			messages: [
				{ role: 'system', content: 'You shout.' },
				{ role: 'user', content: 'Shout hello' },
			],
		});
		expect(first.tools).toEqual([
			expect.objectContaining({
				type: 'function',
				function: expect.objectContaining({ name: 'Shout' }),
			}),
		]);
		expect(second.messages.filter((m: { role: string }) => m.role === 'tool')).toEqual([
			expect.objectContaining({ content: 'SHOUTED: HELLO' }),
		]);
		expect(run.result.usage.totalTokens).toBeGreaterThan(0);
	}, 30_000);
});
