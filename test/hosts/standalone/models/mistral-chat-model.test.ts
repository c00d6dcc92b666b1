/**
 * n8n's Mistral Cloud Chat Model in the standalone host, through its own node code: its
 * `supplyData` builds LangChain's ChatMistralAI (the @mistralai/mistralai SDK over n8n's proxy
 * fetch), answered by a loopback fake in Mistral's stream format — SSE chunks, a tool call whole
 * in one delta with Mistral's 9-character id, usage in the last chunk.
 *
 * The node calls https://api.mistral.ai through undici with its own dispatcher, which nock
 * does not see: `redirectUndiciOrigin` sends that origin to the fake; path, headers and body
 * are the node's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import { startFakeChatServer, type FakeChatServer } from '../../../support/fake-chat-server';
import { sseBody } from '../../../support/nock-provider';
import { redirectUndiciOrigin } from '../../../support/redirect-undici-origin';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

const model = 'mistral-small-latest';
const chunk = (delta: object, finish: string | null = null, usage?: object) => ({
	id: 'cmpl-mistral-1',
	object: 'chat.completion.chunk',
	created: 1_750_000_000,
	model,
	choices: [{ index: 0, delta, finish_reason: finish }],
	...(usage ? { usage } : {}),
});

// The fake sends `Content-Type: text/event-stream` itself.
const answer = (events: object[]) => ({ rawSse: sseBody(events).body });

let mistral: FakeChatServer;
let restore: () => void;
beforeAll(async () => {
	mistral = await startFakeChatServer({
		respond: ({ body }) => {
			const tool = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			if (tool)
				return answer([
					chunk({ role: 'assistant', content: '' }),
					chunk({ content: 'Mistral heard ' }),
					chunk({ content: tool.content }),
					chunk({ content: '' }, 'stop', {
						prompt_tokens: 50,
						completion_tokens: 7,
						total_tokens: 57,
					}),
				]);
			return answer([
				chunk({ role: 'assistant', content: '' }),
				chunk(
					{
						tool_calls: [
							{
								id: 'aB3dE5fG7',
								function: { name: 'Shout', arguments: '{"input": "hello"}' },
								index: 0,
							},
						],
					},
					'tool_calls',
					{ prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
				),
			]);
		},
	});
	restore = redirectUndiciOrigin('https://api.mistral.ai', mistral.baseUrl.replace(/\/v1$/, ''));
});
afterAll(async () => {
	restore();
	await mistral.close();
});

describe("n8n's Mistral Cloud Chat Model through its own node code", () => {
	it('asks for the tool, the tool runs once, the answer streams and usage adds up', async () => {
		const streamed: string[] = [];
		const run = await runWorkflowAgent(
			modelAgentWorkflow(
				modelNode(
					'Mistral Cloud Chat Model',
					'lmChatMistralCloud',
					1,
					{
						model,
						options: {
							temperature: 0.25,
							maxTokens: 256,
						},
					},
					{ mistralCloudApi: { id: 'm', name: 'Mistral account' } },
				),
			),
			{
				prompt: 'Shout hello',
				credentials: { 'Mistral account': { apiKey: 'mistral-test-key-1234' } },
				env: {},
				onEvent: (event) => {
					if (event.type === 'text-delta') streamed.push(event.text);
				},
			},
		);
		if (run.mode !== 'full') throw new Error('expected a full run');
		expect(run.result.output).toBe('Mistral heard SHOUTED: HELLO');
		expect(streamed.join('')).toBe('Mistral heard SHOUTED: HELLO');
		expect(mistral.requests).toHaveLength(2);
		const [first, second] = mistral.requests;
		expect(first.path).toBe('/v1/chat/completions');
		expect(first.headers.authorization).toBe('Bearer mistral-test-key-1234');
		expect(first.body).toMatchObject({
			model,
			temperature: 0.25,
			max_tokens: 256,
			stream: true,
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
		const toolMessages = second.body.messages.filter(
			(message: { role: string }) => message.role === 'tool',
		);
		expect(toolMessages).toEqual([
			expect.objectContaining({ tool_call_id: 'aB3dE5fG7', content: 'SHOUTED: HELLO' }),
		]);
		expect(run.result.usage).toMatchObject({
			promptTokens: 90,
			completionTokens: 19,
			totalTokens: 109,
		});
	}, 30_000);
});
