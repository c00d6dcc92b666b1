/**
 * n8n's Google Gemini Chat Model (`lmChatGoogleGemini`) in the standalone host: the real node
 * supplies its ChatGoogleGenerativeAI (n8n's code, the user's `googlePalmApi` credential, whose
 * Host points at a loopback fake of the Gemini API), and our loop drives it over
 * `streamGenerateContent?alt=sse`: a function call, its functionResponse, a streamed answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandaloneHost } from '../../../../../src/hosts/standalone/standalone-host';
import { startFakeChatServer, type FakeChatServer } from '../../../../support/fake-chat-server';
import {
	geminiError,
	geminiFunctionCalls,
	geminiFunctionDeclarations,
	geminiFunctionResponses,
	geminiReply,
} from '../../../../support/provider-fakes/fake-gemini';
import { langChainNode } from '../sub-node-workflows';
import {
	runWithWeatherTool,
	supplyChatModel,
	userMessage,
	weatherObservation,
} from './supply-chat-model';

const apiKey = 'AIza-fake-gemini-provider-secret';
const modelId = 'gemini-2.5-flash';

let api: FakeChatServer;
let host: StandaloneHost;

beforeAll(async () => {
	api = await startFakeChatServer({
		respond: (request) => {
			if (request.path.includes('/models/gemini-unknown:'))
				return {
					status: 404,
					errorBody: geminiError(404, 'NOT_FOUND', 'models/gemini-unknown is not found'),
				};
			const results = geminiFunctionResponses(request.body);
			return results.length === 0
				? geminiReply(
						request,
						[{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
						{
							usage: { promptTokenCount: 31, candidatesTokenCount: 5 },
						},
					)
				: geminiReply(request, [{ text: `It is ${String(results[0].response.result)}.` }], {
						usage: { promptTokenCount: 52, candidatesTokenCount: 9 },
					});
		},
	});
	host = await StandaloneHost.create({
		credentials: { 'Gemini fake': { apiKey, host: api.baseUrl.replace(/\/v1$/, '') } },
		env: {},
	});
});

afterAll(() => api.close());

const geminiNode = (model = modelId) =>
	langChainNode(
		'Google Gemini Chat Model',
		'lmChatGoogleGemini',
		1.2,
		{
			modelName: `models/${model}`,
			options: { maxOutputTokens: 300, temperature: 0.3, topK: 20, topP: 0.8 },
		},
		{ googlePalmApi: { id: 'g', name: 'Gemini fake' } },
	);

describe('the Google Gemini Chat Model node, supplied standalone and driven by our loop', () => {
	it('streams a function call over streamGenerateContent, sends the functionResponse back, and answers', async () => {
		const before = api.requests.length;
		const { model, close } = await supplyChatModel(host, geminiNode());
		const { result, toolCalls, events } = await runWithWeatherTool(model, modelId);
		await close();

		expect(toolCalls).toEqual([{ city: 'Paris' }]);
		expect(result.output).toBe(`It is ${weatherObservation}.`);
		const requests = api.requests.slice(before);
		expect(requests).toHaveLength(2);
		for (const request of requests) {
			expect(request.method).toBe('POST');
			expect(request.path).toBe(`/v1beta/models/${modelId}:streamGenerateContent?alt=sse`);
			expect(request.headers['x-goog-api-key']).toBe(apiKey);
			// The node's options reach the wire.
			expect(request.body.generationConfig).toMatchObject({
				maxOutputTokens: 300,
				temperature: 0.3,
				topK: 20,
				topP: 0.8,
			});
		}
		const [first, second] = requests;
		expect(first.body.contents).toEqual([{ role: 'user', parts: [{ text: userMessage }] }]);
		expect(geminiFunctionDeclarations(first.body).get('get_weather')).toMatchObject({
			description: 'The current weather in a city',
			parameters: {
				type: 'object',
				properties: { city: { type: 'string', description: 'City name' } },
				required: ['city'],
			},
		});
		expect(geminiFunctionCalls(second.body)).toEqual([
			{ name: 'get_weather', args: { city: 'Paris' } },
		]);
		expect(geminiFunctionResponses(second.body)).toEqual([
			{ name: 'get_weather', response: { result: weatherObservation } },
		]);
		expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(2);
		// Cumulative counts per chunk, differenced by LangChain, summed over both calls.
		expect(result.usage).toMatchObject({
			promptTokens: 31 + 52,
			completionTokens: 5 + 9,
			totalTokens: 31 + 5 + 52 + 9,
		});
		expect(JSON.stringify({ result, events })).not.toContain(apiKey);
	});

	it('an error of the Gemini API fails the run once, with n8n’s message for its status', async () => {
		const before = api.requests.length;
		const { model, close } = await supplyChatModel(host, geminiNode('gemini-unknown'));
		await expect(runWithWeatherTool(model, 'gemini-unknown')).rejects.toThrow(
			'The resource you are requesting could not be found',
		);
		expect(api.requests.length - before).toBe(1);
		await close();
	});

	it('without its credential the node says so', async () => {
		const bare = { ...geminiNode(), credentials: undefined };
		await expect(supplyChatModel(host, bare)).rejects.toThrow(/credential/i);
	});
});
