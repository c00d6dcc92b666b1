/**
 * The add-on's chat model nodes that are n8n's ChatOpenAI at a provider's OpenAI-compatible
 * endpoint — Vercel AI Gateway, Alibaba Cloud (DashScope compatible mode), Moonshot, MiniMax,
 * Nvidia NIM, Lemonade — in the standalone host: each real node supplies its model from its own
 * credential (the URL field at a loopback Chat Completions fake; Alibaba's node appends
 * `/compatible-mode/v1` to it), and our loop drives it: a streamed tool call, the tool's
 * result, a streamed answer, the node's options on the wire; then an n8n AI Agent on it, end to
 * end through `runWorkflowAgent` with the Code Tool "Shout".
 */
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflowAgent } from '../../../../../src/hosts/standalone/run-workflow-agent';
import { StandaloneHost } from '../../../../../src/hosts/standalone/standalone-host';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
} from '../../../../support/fake-chat-server';
import { modelAgentWorkflow, modelNode } from '../../models/model-agent-workflow';
import { langChainNode } from '../sub-node-workflows';
import {
	runWithWeatherTool,
	supplyChatModel,
	userMessage,
	weatherObservation,
} from './supply-chat-model';

interface Row {
	provider: string;
	type: string;
	version: number;
	credentialType: string;
	/** The credential record, given the fake's origin (`http://127.0.0.1:<port>`). */
	credential: (origin: string) => ICredentialDataDecryptedObject;
	model: string;
	parameters?: INodeParameters;
	/** The path the node's client posts to. */
	path: string;
	/** Extra request fields the node adds on its own. */
	body?: Record<string, unknown>;
}

const rows: Row[] = [
	{
		provider: 'Vercel AI Gateway',
		type: 'lmChatVercelAiGateway',
		version: 1,
		credentialType: 'vercelAiGatewayApi',
		credential: (origin) => ({ apiKey: 'vck-fake-provider-secret', url: `${origin}/v1` }),
		model: 'openai/gpt-4o-mini',
		path: '/v1/chat/completions',
	},
	{
		provider: 'Alibaba Cloud',
		type: 'lmChatAlibabaCloud',
		version: 1.1,
		credentialType: 'alibabaCloudApi',
		credential: (origin) => ({
			apiKey: 'sk-fake-dashscope-secret',
			region: 'ap-southeast-1',
			url: origin,
		}),
		model: 'qwen-plus',
		path: '/compatible-mode/v1/chat/completions',
	},
	{
		provider: 'Moonshot',
		type: 'lmChatMoonshot',
		version: 1.1,
		credentialType: 'moonshotApi',
		credential: (origin) => ({
			apiKey: 'sk-fake-moonshot-secret',
			region: 'international',
			url: `${origin}/v1`,
		}),
		model: 'kimi-k2-0905-preview',
		path: '/v1/chat/completions',
	},
	{
		provider: 'MiniMax',
		type: 'lmChatMinimax',
		version: 1.2,
		credentialType: 'minimaxApi',
		credential: (origin) => ({
			apiKey: 'fake-minimax-provider-secret',
			region: 'international',
			url: `${origin}/v1`,
		}),
		model: 'MiniMax-M2',
		parameters: { model: { __rl: true, mode: 'id', value: 'MiniMax-M2' } },
		path: '/v1/chat/completions',
		// "Hide Thinking" (on by default) asks MiniMax to split reasoning out of the content.
		body: { reasoning_split: true },
	},
	{
		provider: 'Nvidia',
		type: 'lmChatNvidia',
		version: 1,
		credentialType: 'nvidiaApi',
		credential: (origin) => ({ apiKey: 'nvapi-fake-provider-secret', url: `${origin}/v1` }),
		model: 'meta/llama-3.1-70b-instruct',
		path: '/v1/chat/completions',
	},
	{
		provider: 'Lemonade',
		type: 'lmChatLemonade',
		version: 1,
		credentialType: 'lemonadeApi',
		credential: (origin) => ({
			apiKey: 'fake-lemonade-provider-secret',
			baseUrl: `${origin}/api/v1`,
		}),
		model: 'Qwen3-8B-GGUF',
		path: '/api/v1/chat/completions',
	},
];

let api: FakeChatServer;
let host: StandaloneHost;

beforeAll(async () => {
	api = await startFakeChatServer({
		respond: ({ body }) => {
			const result = (body.messages as Array<{ role: string; content: string }>).find(
				(message) => message.role === 'tool',
			);
			return result
				? textReply(`It is ${result.content}.`, {
						model: body.model,
						usage: { prompt_tokens: 50, completion_tokens: 8, total_tokens: 58 },
					})
				: toolCallReply(
						// The weather tool here; the Code Tool "Shout" in the workflow run.
						body.tools?.[0]?.function?.name === 'Shout'
							? [{ id: 'call_shout_1', name: 'Shout', arguments: { input: 'hello' } }]
							: [{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }],
						{
							model: body.model,
							usage: { prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 },
						},
					);
		},
	});
	const origin = api.baseUrl.replace(/\/v1$/, '');
	host = await StandaloneHost.create({
		credentials: Object.fromEntries(rows.map((row) => [row.provider, row.credential(origin)])),
		env: {},
	});
});

afterAll(() => api.close());

describe.each(rows)('the $provider Chat Model node ($type), supplied standalone', (row) => {
	it('runs our loop over its own ChatOpenAI: tool call, tool result, answer, options and usage', async () => {
		const node = langChainNode(
			`${row.provider} Chat Model`,
			row.type,
			row.version,
			{ model: row.model, options: { maxTokens: 321, temperature: 0.35 }, ...row.parameters },
			{ [row.credentialType]: { id: row.type, name: row.provider } },
		);
		const before = api.requests.length;
		const { model, close } = await supplyChatModel(host, node);
		const { result, toolCalls, events } = await runWithWeatherTool(model, row.model);
		await close();

		expect(toolCalls).toEqual([{ city: 'Paris' }]);
		expect(result.output).toBe(`It is ${weatherObservation}.`);
		const requests = api.requests.slice(before);
		expect(requests).toHaveLength(2);
		const secret = String(row.credential('').apiKey);
		for (const request of requests) {
			expect(request.path).toBe(row.path);
			expect(request.headers.authorization).toBe(`Bearer ${secret}`);
			expect(request.body).toMatchObject({
				model: row.model,
				stream: true,
				max_tokens: 321,
				temperature: 0.35,
				...row.body,
			});
		}
		const [first, second] = requests;
		expect(first.body.messages).toEqual([{ role: 'user', content: userMessage }]);
		expect(first.body.tools).toEqual([
			{
				type: 'function',
				function: expect.objectContaining({
					name: 'get_weather',
					description: 'The current weather in a city',
					parameters: expect.objectContaining({
						properties: { city: { type: 'string', description: 'City name' } },
						required: ['city'],
					}),
				}),
			},
		]);
		expect(second.body.messages).toContainEqual({
			role: 'tool',
			tool_call_id: 'call_weather_1',
			content: weatherObservation,
		});
		expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(2);
		expect(result.usage).toMatchObject({ promptTokens: 80, completionTokens: 15, totalTokens: 95 });
		expect(result.model).toBe(row.model);
		expect(JSON.stringify({ result, events })).not.toContain(secret);
	});

	it('runs an n8n AI Agent on it through runWorkflowAgent: the Code Tool runs once, the answer comes back', async () => {
		const node = modelNode(
			`${row.provider} Chat Model`,
			row.type,
			row.version,
			{ model: row.model, options: { maxTokens: 123 }, ...row.parameters },
			{ [row.credentialType]: { id: row.type, name: row.provider } },
		);
		const before = api.requests.length;
		const run = await runWorkflowAgent(modelAgentWorkflow(node), {
			prompt: 'Shout hello',
			credentials: { [row.provider]: row.credential(api.baseUrl.replace(/\/v1$/, '')) },
			env: {},
		});
		if (run.mode !== 'full') throw new Error(`expected a full-mode run, got ${run.mode}`);
		expect(run.result.output).toBe('It is SHOUTED: HELLO.');
		expect(run.modelNode).toEqual({ name: node.name, type: node.type });
		expect(run.result.steps).toEqual([expect.objectContaining({ tool: 'Shout', isError: false })]);
		const requests = api.requests.slice(before);
		expect(requests.map((request) => request.path)).toEqual([row.path, row.path]);
		expect(requests[0].body).toMatchObject({
			model: row.model,
			max_tokens: 123,
			messages: [
				{ role: 'system', content: 'You shout.' },
				{ role: 'user', content: 'Shout hello' },
			],
		});
		expect(JSON.stringify(run)).not.toContain(String(row.credential('').apiKey));
	});
});
