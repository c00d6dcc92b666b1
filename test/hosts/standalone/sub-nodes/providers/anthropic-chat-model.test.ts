/**
 * n8n's Anthropic Chat Model (`lmChatAnthropic`) in the standalone host: the real node supplies
 * its ChatAnthropic (n8n's code, the user's `anthropicApi` credential, whose Base URL points at
 * a loopback fake of the Messages API), and our loop drives it: a streamed tool call, the tool's
 * result, a streamed final answer — the fake sees Anthropic's own request shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandaloneHost } from '../../../../../src/hosts/standalone/standalone-host';
import {
	anthropicErrorReply,
	anthropicTextReply,
	anthropicToolResults,
	anthropicToolsByName,
	anthropicToolUseReply,
	anthropicToolUses,
} from '../../../../support/fake-anthropic';
import { startFakeChatServer, type FakeChatServer } from '../../../../support/fake-chat-server';
import { langChainNode } from '../sub-node-workflows';
import {
	runWithWeatherTool,
	supplyChatModel,
	userMessage,
	weatherObservation,
} from './supply-chat-model';

const apiKey = 'sk-ant-fake-provider-secret';
const modelId = 'claude-haiku-4-5';

let api: FakeChatServer;
let host: StandaloneHost;

beforeAll(async () => {
	api = await startFakeChatServer({
		respond: (request) => {
			if (request.body?.model === 'claude-unknown')
				return anthropicErrorReply(404, 'not_found_error', 'model: claude-unknown');
			return anthropicToolResults(request.body).length === 0
				? anthropicToolUseReply(
						request,
						[{ id: 'toolu_weather_1', name: 'get_weather', input: { city: 'Paris' } }],
						{ text: 'Let me check.', usage: { input_tokens: 25, output_tokens: 9 } },
					)
				: anthropicTextReply(request, `It is ${anthropicToolResults(request.body)[0].content}.`, {
						usage: { input_tokens: 60, output_tokens: 11 },
					});
		},
	});
	host = await StandaloneHost.create({
		// The credential's Base URL: the SDK appends /v1/messages.
		credentials: { 'Anthropic fake': { apiKey, url: api.baseUrl.replace(/\/v1$/, '') } },
		env: {},
	});
});

afterAll(() => api.close());

const anthropicNode = (model = modelId) =>
	langChainNode(
		'Anthropic Chat Model',
		'lmChatAnthropic',
		1.3,
		{
			model: { __rl: true, mode: 'id', value: model },
			options: { maxTokensToSample: 512, temperature: 0.2 },
		},
		{ anthropicApi: { id: 'a', name: 'Anthropic fake' } },
	);

describe('the Anthropic Chat Model node, supplied standalone and driven by our loop', () => {
	it('streams a tool call over the Messages API, sends the result back, and answers', async () => {
		const before = api.requests.length;
		const { model, close } = await supplyChatModel(host, anthropicNode());
		const { result, toolCalls, events } = await runWithWeatherTool(model, modelId);
		await close();

		expect(toolCalls).toEqual([{ city: 'Paris' }]);
		expect(result.output).toBe(`It is ${weatherObservation}.`);
		const [first, second] = api.requests.slice(before);
		expect(api.requests.length - before).toBe(2);
		for (const request of [first, second]) {
			expect(request.method).toBe('POST');
			expect(request.path).toBe('/v1/messages');
			expect(request.headers['x-api-key']).toBe(apiKey);
			expect(request.headers['anthropic-version']).toBe('2023-06-01');
			// The node's options reach the wire.
			expect(request.body).toMatchObject({
				model: modelId,
				max_tokens: 512,
				temperature: 0.2,
				stream: true,
			});
		}
		expect(first.body.messages).toEqual([
			{ role: 'user', content: expect.stringContaining(userMessage) },
		]);
		expect(anthropicToolsByName(first.body).get('get_weather')).toMatchObject({
			description: 'The current weather in a city',
			input_schema: {
				type: 'object',
				properties: { city: { type: 'string', description: 'City name' } },
				required: ['city'],
			},
		});
		expect(anthropicToolUses(second.body)).toEqual([
			{ id: 'toolu_weather_1', name: 'get_weather', input: { city: 'Paris' } },
		]);
		expect(anthropicToolResults(second.body)).toEqual([
			{ tool_use_id: 'toolu_weather_1', content: weatherObservation, is_error: false },
		]);
		// The answer arrived in text deltas (the fake streams 8 characters at a time).
		const deltas = events.filter((event) => event.type === 'text-delta');
		expect(deltas.length).toBeGreaterThan(2);
		// LangChain adds message_start's output_tokens (1, as Anthropic sends it) to message_delta's.
		expect(result.usage).toMatchObject({
			promptTokens: 25 + 60,
			completionTokens: 9 + 1 + 11 + 1,
			totalTokens: 25 + 60 + 9 + 1 + 11 + 1,
		});
		// ChatAnthropic keeps the reported model in additional_kwargs, where the caller does not look.
		expect(result.model).toBeUndefined();
		expect(JSON.stringify({ result, events })).not.toContain(apiKey);
	});

	it('an error of the Messages API fails the run once, with n8n’s message for its status', async () => {
		const before = api.requests.length;
		const { model, close } = await supplyChatModel(host, anthropicNode('claude-unknown'));
		// n8n's failed-attempt handler turns the 404 into its NodeApiError text and stops retries.
		await expect(runWithWeatherTool(model, 'claude-unknown')).rejects.toThrow(
			'The resource you are requesting could not be found',
		);
		expect(api.requests.length - before).toBe(1);
		await close();
	});

	it('without its credential the node says so', async () => {
		const bare = { ...anthropicNode(), credentials: undefined };
		await expect(supplyChatModel(host, bare)).rejects.toThrow(/credential/i);
	});
});
