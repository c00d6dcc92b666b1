/**
 * n8n's Google Vertex Chat Model (`lmChatGoogleVertex`) in the standalone host: the real node
 * builds its ChatVertexAI from the user's `googleApi` service-account credential (a throwaway
 * RSA key made here); google-auth-library exchanges a signed JWT for an access token at
 * oauth2.googleapis.com, and the model streams from the regional aiplatform host — both
 * intercepted by nock (neither takes a base URL), so nothing leaves the process.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StandaloneHost } from '../../../../../src/hosts/standalone/standalone-host';
import {
	geminiFunctionCalls,
	geminiFunctionDeclarations,
	geminiFunctionResponses,
} from '../../../../support/provider-fakes/fake-gemini';
import {
	nockVertexAi,
	throwawayServiceAccount,
	vertexAccessToken,
} from '../../../../support/provider-fakes/fake-vertex-ai';
import { langChainNode } from '../sub-node-workflows';
import {
	runWithWeatherTool,
	supplyChatModel,
	userMessage,
	weatherObservation,
} from './supply-chat-model';

const projectId = 'fake-project-4711';
const location = 'us-central1';
const modelId = 'gemini-2.5-flash';
const account = throwawayServiceAccount();

let host: StandaloneHost;

beforeAll(async () => {
	// Only loopback may be reached: an unintercepted Google request fails instead of leaving.
	nock.disableNetConnect();
	nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
	host = await StandaloneHost.create({
		credentials: {
			'Vertex fake': { email: account.email, privateKey: account.privateKey, region: location },
		},
		env: {},
	});
});

afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

const vertexNode = (model = modelId) =>
	langChainNode(
		'Google Vertex Chat Model',
		'lmChatGoogleVertex',
		1,
		{
			projectId: { __rl: true, mode: 'id', value: projectId },
			modelName: model,
			options: { maxOutputTokens: 333, temperature: 0.25, topK: 12, topP: 0.7 },
		},
		{ googleApi: { id: 'v', name: 'Vertex fake' } },
	);

describe('the Google Vertex Chat Model node, supplied standalone and driven by our loop', () => {
	it('gets a token with a signed JWT, streams a function call, sends the functionResponse back, and answers', async () => {
		const vertex = nockVertexAi({
			projectId,
			location,
			privateKey: account.privateKey,
			respond: ({ body }) => {
				const results = geminiFunctionResponses(body);
				return results.length === 0
					? {
							parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
							usage: { promptTokenCount: 33, candidatesTokenCount: 6 },
						}
					: {
							parts: [{ text: `It is ${String(results[0].response.content)}.` }],
							usage: { promptTokenCount: 57, candidatesTokenCount: 12 },
						};
			},
		});
		const { model, close } = await supplyChatModel(host, vertexNode());
		const { result, toolCalls, events } = await runWithWeatherTool(model, modelId);
		await close();

		expect(toolCalls).toEqual([{ city: 'Paris' }]);
		// The token exchange: a JWT signed with the credential's key, for the cloud-platform scope.
		expect(vertex.tokenRequests.length).toBeGreaterThanOrEqual(1);
		expect(vertex.tokenRequests[0]).toMatchObject({
			grantType: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
			header: { alg: 'RS256' },
			claims: {
				iss: account.email,
				aud: 'https://oauth2.googleapis.com/token',
				scope: 'https://www.googleapis.com/auth/cloud-platform',
			},
			signatureValid: true,
		});
		expect(vertex.requests).toHaveLength(2);
		for (const request of vertex.requests) {
			expect(request.path).toBe(
				`/v1/projects/${projectId}/locations/${location}/publishers/google/models/${modelId}:streamGenerateContent`,
			);
			expect(request.authorization).toBe(`Bearer ${vertexAccessToken}`);
			// The node's options reach the wire.
			expect(request.body.generationConfig).toMatchObject({
				maxOutputTokens: 333,
				temperature: 0.25,
				topK: 12,
				topP: 0.7,
			});
		}
		const [first, second] = vertex.requests;
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
		// google-common (Vertex) names the result `content`; google-genai (Gemini API) says `result`.
		expect(geminiFunctionResponses(second.body)).toEqual([
			{ name: 'get_weather', response: { content: weatherObservation } },
		]);
		expect(result.output).toBe(`It is ${weatherObservation}.`);
		expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(2);
		expect(result.usage).toMatchObject({
			promptTokens: 33 + 57,
			completionTokens: 6 + 12,
			totalTokens: 33 + 6 + 57 + 12,
		});
		const outputs = JSON.stringify({ result, events });
		expect(outputs).not.toContain(vertexAccessToken);
		expect(outputs).not.toContain('PRIVATE KEY');
	});

	it('an error of Vertex AI fails the run once, with n8n’s message for its status', async () => {
		const vertex = nockVertexAi({
			projectId,
			location,
			privateKey: account.privateKey,
			respond: () => ({
				status: 404,
				error: {
					code: 404,
					message: `Publisher Model \`gemini-unknown\` was not found.`,
					status: 'NOT_FOUND',
				},
			}),
		});
		const { model, close } = await supplyChatModel(host, vertexNode('gemini-unknown'));
		await expect(runWithWeatherTool(model, 'gemini-unknown')).rejects.toThrow(
			"No model found called 'gemini-unknown'",
		);
		expect(vertex.requests).toHaveLength(1);
		await close();
	});

	it('without its credential the node says so', async () => {
		const bare = { ...vertexNode(), credentials: undefined };
		await expect(supplyChatModel(host, bare)).rejects.toThrow(/credential/i);
	});
});
