/**
 * n8n's chat-model nodes that speak OpenAI's Chat Completions, each behind n8n's AI Agent with
 * an offline Code Tool, against a loopback fake of that wire format (SSE chunks, tool-call
 * deltas, usage in the last chunk when the client asks with `stream_options`):
 *
 * - xAI Grok and Azure OpenAI run through their own node code (`supplyData`: LangChain's
 *   ChatOpenAI on the credential's URL; AzureChatOpenAI on the credential's endpoint, its
 *   deployment path, `api-version` and `api-key` header);
 * - the OpenAI and OpenRouter Chat Models run on the built-in client, which reads their model,
 *   temperature, max tokens and credential.
 *
 * Each: the fake first asks for the tool, then answers with what the tool said; the test checks
 * what the fake received (the user's message, the tool's schema, the node's options), that the
 * tool ran once, the answer, the streamed text and the usage.
 */
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../../src/hosts/standalone/run-workflow-agent';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../support/fake-chat-server';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

let fake: FakeChatServer;
beforeAll(async () => {
	fake = await startFakeChatServer({
		respond: ({ body }) => {
			// Usage comes in a last chunk only when the client asks for it, as OpenAI does.
			const usage = body.stream_options?.include_usage === true ? undefined : null;
			const tool = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			return tool
				? textReply(`It said ${tool.content}`, { model: body.model, usage })
				: toolCallReply([{ name: 'Shout', arguments: { input: 'hello' } }], {
						model: body.model,
						usage,
					});
		},
	});
});
afterAll(() => fake.close());

interface Case {
	title: string;
	node: () => INode;
	credentials: () => Record<string, ICredentialDataDecryptedObject>;
	/** The path the requests go to. */
	path: RegExp;
	/** The auth header and its value. */
	auth: [string, string];
	/** What the first request's body holds besides messages and tools. */
	request: Record<string, unknown>;
	/** The run's model name. */
	model: string;
	/** How the model was called: through the node's code (no base URL) or the built-in client. */
	viaNodeCode: boolean;
	/** Whether usage is reported (the client asked for it). */
	usage: boolean;
}

const origin = () => fake.baseUrl.replace(/\/v1$/, '');
const cases: Case[] = [
	{
		title: 'xAI Grok Chat Model',
		node: () =>
			modelNode(
				'xAI Grok Chat Model',
				'lmChatXAiGrok',
				1,
				{ model: 'grok-3-mini', options: { temperature: 0.4, maxTokens: 200 } },
				{ xAiApi: { id: 'x', name: 'xAI account' } },
			),
		credentials: () => ({ 'xAI account': { apiKey: 'xai-test-key-1234', url: fake.baseUrl } }),
		path: /^\/v1\/chat\/completions$/,
		auth: ['authorization', 'Bearer xai-test-key-1234'],
		request: { model: 'grok-3-mini', temperature: 0.4, max_tokens: 200, stream: true },
		model: 'grok-3-mini',
		viaNodeCode: true,
		// n8n's node clears `stream_options`: xAI's client does not ask for usage while streaming.
		usage: false,
	},
	{
		title: 'Azure OpenAI Chat Model',
		node: () =>
			modelNode(
				'Azure OpenAI Chat Model',
				'lmChatAzureOpenAi',
				1,
				{ model: 'my-gpt-4o-deployment', options: { temperature: 0.5, maxTokens: 300 } },
				{ azureOpenAiApi: { id: 'a', name: 'Azure account' } },
			),
		credentials: () => ({
			'Azure account': {
				endpointType: 'classic',
				apiKey: 'azure-test-key-1234',
				resourceName: 'my-resource',
				apiVersion: '2025-03-01-preview',
				endpoint: origin(),
			},
		}),
		path: /^\/openai\/deployments\/my-gpt-4o-deployment\/chat\/completions\?api-version=2025-03-01-preview$/,
		auth: ['api-key', 'azure-test-key-1234'],
		request: { temperature: 0.5, max_tokens: 300, stream: true },
		model: 'my-gpt-4o-deployment',
		viaNodeCode: true,
		usage: true,
	},
	{
		title: 'OpenAI Chat Model (built-in client)',
		node: () =>
			modelNode(
				'OpenAI Chat Model',
				'lmChatOpenAi',
				1.2,
				{
					model: { __rl: true, mode: 'list', value: 'gpt-4.1-mini' },
					options: { temperature: 0.6, maxTokens: 400 },
				},
				{ openAiApi: { id: 'o', name: 'OpenAI account' } },
			),
		credentials: () => ({ 'OpenAI account': { apiKey: 'sk-openai-test-1234', url: fake.baseUrl } }),
		path: /^\/v1\/chat\/completions$/,
		auth: ['authorization', 'Bearer sk-openai-test-1234'],
		request: { model: 'gpt-4.1-mini', temperature: 0.6, max_tokens: 400, stream: true },
		model: 'gpt-4.1-mini',
		viaNodeCode: false,
		usage: true,
	},
	{
		title: 'OpenRouter Chat Model (built-in client)',
		node: () =>
			modelNode(
				'OpenRouter Chat Model',
				'lmChatOpenRouter',
				1,
				{ model: 'anthropic/claude-sonnet-4', options: { temperature: 0.7, maxTokens: 500 } },
				{ openRouterApi: { id: 'r', name: 'OpenRouter account' } },
			),
		credentials: () => ({
			'OpenRouter account': { apiKey: 'sk-or-test-1234', url: fake.baseUrl },
		}),
		path: /^\/v1\/chat\/completions$/,
		auth: ['authorization', 'Bearer sk-or-test-1234'],
		request: {
			model: 'anthropic/claude-sonnet-4',
			temperature: 0.7,
			max_tokens: 500,
			stream: true,
		},
		model: 'anthropic/claude-sonnet-4',
		viaNodeCode: false,
		usage: true,
	},
];

describe.each(cases)("n8n's $title behind n8n's AI Agent", (each) => {
	it('asks for the tool, the tool runs once, the answer streams, usage adds up', async () => {
		const before = fake.requests.length;
		const streamed: string[] = [];
		const run = await runWorkflowAgent(modelAgentWorkflow(each.node()), {
			prompt: 'Shout hello',
			credentials: each.credentials(),
			env: {},
			onEvent: (event) => {
				if (event.type === 'text-delta') streamed.push(event.text);
			},
		});
		if (run.mode !== 'full') throw new Error('expected a full run');
		const requests: FakeRequest[] = fake.requests.slice(before);
		expect(requests).toHaveLength(2);
		expect(run.result.output).toBe('It said SHOUTED: HELLO');
		expect(streamed.join('')).toBe('It said SHOUTED: HELLO');
		expect(run.model).toBe(each.model);
		expect(run.baseUrl === undefined).toBe(each.viaNodeCode);
		for (const request of requests) {
			expect(request.path).toMatch(each.path);
			expect(request.headers[each.auth[0]]).toBe(each.auth[1]);
		}
		const [first, second] = requests.map((request) => request.body);
		expect(first).toMatchObject(each.request);
		expect(first.messages).toEqual([
			{ role: 'system', content: 'You shout.' },
			{ role: 'user', content: 'Shout hello' },
		]);
		expect(first.tools).toEqual([
			{
				type: 'function',
				function: expect.objectContaining({
					name: 'Shout',
					description: 'Upper-cases the text given as query',
					parameters: expect.objectContaining({
						properties: { input: expect.objectContaining({ type: 'string' }) },
					}),
				}),
			},
		]);
		const toolMessages = second.messages.filter(
			(message: { role: string }) => message.role === 'tool',
		);
		expect(toolMessages).toEqual([
			expect.objectContaining({ tool_call_id: 'call_fake_1', content: 'SHOUTED: HELLO' }),
		]);
		if (each.usage) {
			expect(run.result.usage.promptTokens).toBe(24);
			expect(run.result.usage.totalTokens).toBeGreaterThan(24);
		} else expect(run.result.usage.totalTokens).toBe(0);
	}, 30_000);
});
