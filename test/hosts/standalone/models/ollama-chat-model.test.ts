/**
 * n8n's Ollama Chat Model in the standalone host, through its own node code: its `supplyData`
 * builds LangChain's ChatOllama (the `ollama` client over n8n's proxy fetch) on the credential's
 * base URL, a loopback fake of Ollama's native API — POST /api/chat answered with NDJSON lines,
 * tool calls with object arguments and no id, the token counts (`prompt_eval_count`,
 * `eval_count`) on the last line with `done: true`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import { startFakeChatServer, type FakeChatServer } from '../../../support/fake-chat-server';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

const model = 'llama3.2:3b';
const line = (message: object, done = false, extra: object = {}) =>
	`${JSON.stringify({ model, created_at: '2026-01-01T00:00:00.000Z', message: { role: 'assistant', ...message }, done, ...extra })}\n`;
const last = (promptTokens: number, outputTokens: number, reason = 'stop') =>
	line({ content: '' }, true, {
		done_reason: reason,
		total_duration: 1_000_000,
		load_duration: 100_000,
		prompt_eval_count: promptTokens,
		prompt_eval_duration: 200_000,
		eval_count: outputTokens,
		eval_duration: 300_000,
	});

let ollama: FakeChatServer;
beforeAll(async () => {
	ollama = await startFakeChatServer({
		respond: ({ body }) => {
			const tool = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			const lines = tool
				? [line({ content: 'Ollama heard ' }), line({ content: tool.content }), last(44, 6)]
				: [
						line({
							content: '',
							tool_calls: [{ function: { name: 'Shout', arguments: { input: 'hello' } } }],
						}),
						last(33, 11),
					];
			return { rawSse: lines.join(''), headers: { 'Content-Type': 'application/x-ndjson' } };
		},
	});
});
afterAll(() => ollama.close());

describe("n8n's Ollama Chat Model through its own node code", () => {
	it('asks for the tool on /api/chat, the tool runs once, the answer streams and usage adds up', async () => {
		const streamed: string[] = [];
		const run = await runWorkflowAgent(
			modelAgentWorkflow(
				modelNode(
					'Ollama Chat Model',
					'lmChatOllama',
					1,
					{ model, options: { temperature: 0.15, numPredict: 128 } },
					{ ollamaApi: { id: 'l', name: 'Local Ollama' } },
				),
			),
			{
				prompt: 'Shout hello',
				credentials: { 'Local Ollama': { baseUrl: ollama.baseUrl.replace(/\/v1$/, '') } },
				env: {},
				onEvent: (event) => {
					if (event.type === 'text-delta') streamed.push(event.text);
				},
			},
		);
		if (run.mode !== 'full') throw new Error('expected a full run');
		expect(run.result.output).toBe('Ollama heard SHOUTED: HELLO');
		expect(streamed.join('')).toBe('Ollama heard SHOUTED: HELLO');
		expect(run.model).toBe(model);
		expect(ollama.requests).toHaveLength(2);
		const [first, second] = ollama.requests;
		expect(first.path).toBe('/api/chat');
		expect(first.body).toMatchObject({
			model,
			stream: true,
			options: { temperature: 0.15, num_predict: 128 },
			messages: [
				{ role: 'system', content: 'You shout.' },
				{ role: 'user', content: 'Shout hello' },
			],
		});
		expect(first.body.tools).toEqual([
			{
				type: 'function',
				function: expect.objectContaining({
					name: 'Shout',
					parameters: expect.objectContaining({
						properties: { input: expect.objectContaining({ type: 'string' }) },
					}),
				}),
			},
		]);
		const assistant = second.body.messages.find(
			(message: { role: string }) => message.role === 'assistant',
		);
		expect(assistant.tool_calls).toEqual([
			expect.objectContaining({ function: { name: 'Shout', arguments: { input: 'hello' } } }),
		]);
		const toolMessages = second.body.messages.filter(
			(message: { role: string }) => message.role === 'tool',
		);
		expect(toolMessages).toEqual([expect.objectContaining({ content: 'SHOUTED: HELLO' })]);
		expect(run.result.usage).toMatchObject({
			promptTokens: 77,
			completionTokens: 17,
			totalTokens: 94,
		});
	}, 30_000);
});
