/**
 * n8n's AI Agent "Enable Fallback Model" in the standalone host: the node on the agent's second
 * Chat Model input (index 1) takes every model call the primary model fails, as n8n's
 * `withFallbacks` does per agent step. Primary: n8n's Groq Chat Model (nock at api.groq.com,
 * answering an error or Groq's stream); fallback: n8n's DeepSeek Chat Model (a loopback fake).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentConfigurationError } from '../../../../src/errors/agent-configuration-error';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../../support/fake-chat-server';
import {
	interceptProvider,
	sseBody,
	type InterceptedProvider,
} from '../../../support/nock-provider';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

let groqFails = true;
let groq: InterceptedProvider;
let deepSeek: FakeChatServer;
beforeAll(async () => {
	groq = interceptProvider('https://api.groq.com', '/openai/v1/chat/completions', () =>
		groqFails
			? {
					status: 400,
					body: JSON.stringify({
						error: {
							message: 'The model `llama-gone` has been decommissioned.',
							type: 'invalid_request_error',
							code: 'model_decommissioned',
						},
					}),
					headers: { 'content-type': 'application/json' },
				}
			: sseBody([
					{
						id: 'chatcmpl-g',
						object: 'chat.completion.chunk',
						created: 1,
						model: 'llama-gone',
						choices: [{ index: 0, delta: { role: 'assistant', content: 'primary' } }],
					},
					{
						id: 'chatcmpl-g',
						object: 'chat.completion.chunk',
						created: 1,
						model: 'llama-gone',
						choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
					},
				]),
	);
	deepSeek = await startFakeChatServer({
		respond: ({ body }) => {
			const tool = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			return tool
				? textReply(`fallback: ${tool.content}`, { model: 'deepseek-chat' })
				: toolCallReply([{ name: 'Shout', arguments: { input: 'hi' } }], {
						model: 'deepseek-chat',
					});
		},
	});
});
afterEach(() => {
	groq.requests.length = 0;
	deepSeek.requests.length = 0;
});
afterAll(async () => {
	groq.release();
	await deepSeek.close();
});

const groqNode = modelNode(
	'Groq Chat Model',
	'lmChatGroq',
	1,
	{ model: 'llama-gone', options: {} },
	{ groqApi: { id: 'g', name: 'Groq account' } },
);
const deepSeekNode = modelNode(
	'DeepSeek Chat Model',
	'lmChatDeepSeek',
	1,
	{ model: 'deepseek-chat', options: { temperature: 0.1 } },
	{ deepSeekApi: { id: 'd', name: 'DeepSeek account' } },
);
const credentials = () => ({
	'Groq account': { apiKey: 'gsk_fallback_test_key' },
	'DeepSeek account': { apiKey: 'sk-deepseek-fallback', url: deepSeek.baseUrl },
});

describe("n8n's fallback model", () => {
	it('takes each call the primary model fails: the tool runs once, the fallback answers', async () => {
		groqFails = true;
		const run = await runWorkflowAgent(modelAgentWorkflow(groqNode, { fallback: deepSeekNode }), {
			prompt: 'Shout hi',
			credentials: credentials(),
			env: {},
		});
		if (run.mode !== 'full') throw new Error('expected a full run');
		expect(run.result.output).toBe('fallback: SHOUTED: HI');
		// Every step starts on the primary model (n8n's withFallbacks wraps each step).
		expect(groq.requests).toHaveLength(2);
		expect(deepSeek.requests).toHaveLength(2);
		expect(deepSeek.requests[0].body).toMatchObject({
			model: 'deepseek-chat',
			temperature: 0.1,
			messages: [
				{ role: 'system', content: 'You shout.' },
				{ role: 'user', content: 'Shout hi' },
			],
		});
		const toolMessages = deepSeek.requests[1].body.messages.filter(
			(message: { role: string }) => message.role === 'tool',
		);
		expect(toolMessages).toEqual([expect.objectContaining({ content: 'SHOUTED: HI' })]);
	}, 30_000);

	it('is not called while the primary model answers', async () => {
		groqFails = false;
		const run = await runWorkflowAgent(modelAgentWorkflow(groqNode, { fallback: deepSeekNode }), {
			prompt: 'Say something',
			credentials: credentials(),
			env: {},
		});
		if (run.mode !== 'full') throw new Error('expected a full run');
		expect(run.result.output).toBe('primary');
		expect(groq.requests).toHaveLength(1);
		expect(deepSeek.requests).toHaveLength(0);
	}, 30_000);

	it('enabled without a model on the Fallback Model input: an AgentConfigurationError', async () => {
		const workflow = modelAgentWorkflow(groqNode, { agentParameters: { needsFallback: true } });
		const error = await runWorkflowAgent(workflow, {
			prompt: 'x',
			credentials: credentials(),
			env: {},
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(AgentConfigurationError);
		expect(error).toMatchObject({ setting: 'fallbackModel' });
		expect((error as Error).message).toContain('Fallback Model input');
		expect(groq.requests).toHaveLength(0);
	}, 30_000);

	it('both fail: the fallback model’s error', async () => {
		groqFails = true;
		const broken = modelNode(
			'Broken DeepSeek',
			'lmChatDeepSeek',
			1,
			{ model: 'deepseek-chat', options: { maxRetries: 0 } },
			{ deepSeekApi: { id: 'b', name: 'Broken account' } },
		);
		const error = await runWorkflowAgent(modelAgentWorkflow(groqNode, { fallback: broken }), {
			prompt: 'x',
			credentials: {
				...credentials(),
				// A loopback port nothing listens on.
				'Broken account': { apiKey: 'sk-broken', url: 'http://127.0.0.1:9/v1' },
			},
			env: {},
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(Error);
		expect(groq.requests.length).toBeGreaterThan(0);
		expect(String((error as Error).message)).not.toContain('decommissioned');
	}, 30_000);
});
