/**
 * n8n's Groq Chat Model in the standalone host, through its own node code: its `supplyData`
 * builds LangChain's ChatGroq (groq-sdk) for https://api.groq.com, answered here by nock in
 * Groq's own stream format — OpenAI-style chunks, a tool call in one delta, usage in the last
 * chunk's `x_groq.usage` — and our loop drives it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentConfigurationError } from '../../../../src/errors/agent-configuration-error';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import {
	interceptProvider,
	sseBody,
	type InterceptedProvider,
} from '../../../support/nock-provider';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

const model = 'llama-3.3-70b-versatile';
const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
	id: 'chatcmpl-groq-1',
	object: 'chat.completion.chunk',
	created: 1_750_000_000,
	model,
	system_fingerprint: 'fp_fake',
	choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
	...extra,
});
const groqUsage = (prompt: number, completion: number) => ({
	x_groq: {
		id: 'req_fake',
		usage: {
			queue_time: 0.01,
			prompt_tokens: prompt,
			prompt_time: 0.002,
			completion_tokens: completion,
			completion_time: 0.01,
			total_tokens: prompt + completion,
			total_time: 0.012,
		},
	},
});

let groq: InterceptedProvider;
beforeAll(() => {
	groq = interceptProvider('https://api.groq.com', '/openai/v1/chat/completions', ({ body }) => {
		const tool = (body.messages as Array<{ role: string; content: string }>).find(
			(message) => message.role === 'tool',
		);
		if (tool)
			return sseBody([
				chunk({ role: 'assistant', content: '' }),
				chunk({ content: 'Groq heard: ' }),
				chunk({ content: tool.content }),
				chunk({}, 'stop', groqUsage(40, 6)),
			]);
		return sseBody([
			chunk({ role: 'assistant', content: null }),
			chunk({
				tool_calls: [
					{
						id: 'call_groq_1',
						type: 'function',
						index: 0,
						function: { name: 'Shout', arguments: '{"input":"hello"}' },
					},
				],
			}),
			chunk({}, 'tool_calls', groqUsage(30, 9)),
		]);
	});
});
afterAll(() => groq.release());

const workflow = (credentials = true) =>
	modelAgentWorkflow(
		modelNode(
			'Groq Chat Model',
			'lmChatGroq',
			1,
			{ model, options: { temperature: 0.2, maxTokensToSample: 512 } },
			credentials ? { groqApi: { id: 'g', name: 'Groq account' } } : undefined,
		),
	);

describe("n8n's Groq Chat Model through its own node code", () => {
	it('asks for the tool, the tool runs once, the answer streams and usage adds up', async () => {
		const streamed: string[] = [];
		const run = await runWorkflowAgent(workflow(), {
			prompt: 'Shout hello',
			credentials: { 'Groq account': { apiKey: 'gsk_test_groq_key_123' } },
			env: {},
			onEvent: (event) => {
				if (event.type === 'text-delta') streamed.push(event.text);
			},
		});
		if (run.mode !== 'full') throw new Error('expected a full run');
		expect(run.result.output).toBe('Groq heard: SHOUTED: HELLO');
		expect(streamed.join('')).toBe('Groq heard: SHOUTED: HELLO');
		expect(run.model).toBe(model);
		expect(groq.requests).toHaveLength(2);
		const [first, second] = groq.requests;
		expect(first.headers.authorization).toBe('Bearer gsk_test_groq_key_123');
		expect(first.body).toMatchObject({
			model,
			temperature: 0.2,
			max_completion_tokens: 512,
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
		expect(second.body.messages.at(-1)).toMatchObject({
			role: 'tool',
			tool_call_id: 'call_groq_1',
			content: 'SHOUTED: HELLO',
		});
		// The model node's key never reaches the result, its state or the streamed text.
		expect(JSON.stringify(run)).not.toContain('gsk_test_groq_key_123');
		expect(run.result.usage).toMatchObject({
			promptTokens: 70,
			completionTokens: 15,
			totalTokens: 85,
		});
	}, 30_000);

	it('without its credential: an AgentConfigurationError naming the node and the credential type', async () => {
		const error = await runWorkflowAgent(workflow(), {
			prompt: 'Shout hello',
			credentials: {},
			env: {},
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(AgentConfigurationError);
		expect(error).toMatchObject({ code: 'AGENT_CONFIGURATION', setting: 'credential' });
		expect((error as Error).message).toContain('"Groq Chat Model"');
		expect((error as Error).message).toContain('type groqApi');
	}, 30_000);
});
