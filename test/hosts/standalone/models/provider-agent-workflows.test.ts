/**
 * End to end through the library's `runWorkflowAgent`: a workflow export whose n8n AI Agent has
 * the Anthropic, Google Gemini, Google Vertex or AWS Bedrock Chat Model on its Chat Model input
 * and one offline tool (the Code Tool "Shout"). The agent's model comes from the model node's
 * own `supplyData` with the user's credential, and each provider's fake (its real wire format:
 * Anthropic's Messages SSE, Gemini's `alt=sse`, Vertex's JSON-array stream behind a JWT token
 * exchange, Bedrock's event-stream) sees the agent's system message, the user's message, the
 * tool, its result and the node's options; the tool runs once.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
	runWorkflowAgent,
	type RunWorkflowAgentOptions,
} from '../../../../src/hosts/standalone/run-workflow-agent';
import {
	anthropicTextReply,
	anthropicToolResults,
	anthropicToolUseReply,
} from '../../../support/fake-anthropic';
import { startFakeChatServer, type FakeChatServer } from '../../../support/fake-chat-server';
import {
	bedrockReply,
	bedrockToolResults,
	startFakeBedrock,
	type FakeBedrock,
} from '../../../support/provider-fakes/fake-bedrock-converse';
import { geminiFunctionResponses, geminiReply } from '../../../support/provider-fakes/fake-gemini';
import {
	nockVertexAi,
	throwawayServiceAccount,
	vertexAccessToken,
} from '../../../support/provider-fakes/fake-vertex-ai';
import { modelAgentWorkflow, modelNode } from './model-agent-workflow';

const prompt = 'Shout hello';
const shouted = 'SHOUTED: HELLO';
const answer = (result: string) => `The tool said ${result}`;

let anthropic: FakeChatServer;
let gemini: FakeChatServer;
let bedrock: FakeBedrock;

beforeAll(async () => {
	nock.disableNetConnect();
	nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
	anthropic = await startFakeChatServer({
		respond: (request) => {
			const [result] = anthropicToolResults(request.body);
			return result
				? anthropicTextReply(request, answer(result.content))
				: anthropicToolUseReply(request, [
						{ id: 'toolu_shout', name: 'Shout', input: { input: 'hello' } },
					]);
		},
	});
	gemini = await startFakeChatServer({
		respond: (request) => {
			const [result] = geminiFunctionResponses(request.body);
			return result
				? geminiReply(request, [{ text: answer(String(result.response.result)) }])
				: geminiReply(request, [{ functionCall: { name: 'Shout', args: { input: 'hello' } } }]);
		},
	});
	bedrock = await startFakeBedrock((request) => {
		const [result] = bedrockToolResults(request.body);
		return result
			? bedrockReply(request.operation, [{ text: answer(result.content[0].text) }])
			: bedrockReply(request.operation, [
					{ toolUse: { toolUseId: 'tooluse_shout', name: 'Shout', input: { input: 'hello' } } },
				]);
	});
});

afterEach(() => nock.cleanAll());
afterAll(async () => {
	nock.enableNetConnect();
	await Promise.all([anthropic.close(), gemini.close(), bedrock.close()]);
});

/** Runs the agent of `model`'s workflow with `credentials`; returns the full-mode run. */
async function runAgentOn(
	model: ReturnType<typeof modelNode>,
	credentials: RunWorkflowAgentOptions['credentials'],
) {
	const run = await runWorkflowAgent(modelAgentWorkflow(model), { prompt, credentials, env: {} });
	if (run.mode !== 'full') throw new Error(`expected a full-mode run, got ${run.mode}`);
	expect(run.result.output).toBe(answer(shouted));
	expect(run.modelNode).toEqual({ name: model.name, type: model.type });
	expect(run.result.steps).toEqual([expect.objectContaining({ tool: 'Shout', isError: false })]);
	expect(run.result.usage.totalTokens).toBeGreaterThan(0);
	return run;
}

describe('an n8n AI Agent on a non-OpenAI chat model node, through runWorkflowAgent', () => {
	it('Anthropic Chat Model: Messages API over the credential’s Base URL', async () => {
		const apiKey = 'sk-ant-e2e-provider-secret';
		const before = anthropic.requests.length;
		const run = await runAgentOn(
			modelNode(
				'Anthropic Chat Model',
				'lmChatAnthropic',
				1.3,
				{
					model: { __rl: true, mode: 'id', value: 'claude-haiku-4-5' },
					options: { maxTokensToSample: 256, temperature: 0.5 },
				},
				{ anthropicApi: { id: 'a', name: 'Anthropic account' } },
			),
			{ 'Anthropic account': { apiKey, url: anthropic.baseUrl.replace(/\/v1$/, '') } },
		);
		const requests = anthropic.requests.slice(before);
		expect(requests.map((request) => request.path)).toEqual(['/v1/messages', '/v1/messages']);
		expect(requests[0].headers['x-api-key']).toBe(apiKey);
		expect(requests[0].body).toMatchObject({
			model: 'claude-haiku-4-5',
			max_tokens: 256,
			temperature: 0.5,
			stream: true,
			system: 'You shout.',
			messages: [{ role: 'user', content: prompt }],
			tools: [expect.objectContaining({ name: 'Shout' })],
		});
		expect(anthropicToolResults(requests[1].body)).toEqual([
			{ tool_use_id: 'toolu_shout', content: shouted, is_error: false },
		]);
		expect(JSON.stringify(run)).not.toContain(apiKey);
	}, 60_000);

	it('Google Gemini Chat Model: streamGenerateContent over the credential’s Host', async () => {
		const apiKey = 'AIza-e2e-gemini-provider-secret';
		const before = gemini.requests.length;
		const run = await runAgentOn(
			modelNode(
				'Google Gemini Chat Model',
				'lmChatGoogleGemini',
				1.2,
				{
					modelName: 'models/gemini-2.5-flash',
					options: { maxOutputTokens: 256, temperature: 0.5 },
				},
				{ googlePalmApi: { id: 'g', name: 'Gemini account' } },
			),
			{ 'Gemini account': { apiKey, host: gemini.baseUrl.replace(/\/v1$/, '') } },
		);
		const requests = gemini.requests.slice(before);
		expect(requests.map((request) => request.path)).toEqual([
			'/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
			'/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
		]);
		expect(requests[0].headers['x-goog-api-key']).toBe(apiKey);
		expect(requests[0].body).toMatchObject({
			systemInstruction: { parts: [{ text: 'You shout.' }] },
			contents: [{ role: 'user', parts: [{ text: prompt }] }],
			generationConfig: { maxOutputTokens: 256, temperature: 0.5 },
			tools: [{ functionDeclarations: [expect.objectContaining({ name: 'Shout' })] }],
		});
		expect(geminiFunctionResponses(requests[1].body)).toEqual([
			{ name: 'Shout', response: { result: shouted } },
		]);
		expect(JSON.stringify(run)).not.toContain(apiKey);
	}, 60_000);

	it('Google Vertex Chat Model: the service account’s token, then the regional aiplatform host (nock)', async () => {
		const account = throwawayServiceAccount();
		const vertex = nockVertexAi({
			projectId: 'e2e-project',
			location: 'europe-west4',
			privateKey: account.privateKey,
			respond: ({ body }) => {
				const [result] = geminiFunctionResponses(body);
				return result
					? { parts: [{ text: answer(String(result.response.content)) }] }
					: { parts: [{ functionCall: { name: 'Shout', args: { input: 'hello' } } }] };
			},
		});
		const run = await runAgentOn(
			modelNode(
				'Google Vertex Chat Model',
				'lmChatGoogleVertex',
				1,
				{
					projectId: { __rl: true, mode: 'id', value: 'e2e-project' },
					modelName: 'gemini-2.5-flash',
					options: { maxOutputTokens: 256, temperature: 0.5 },
				},
				{ googleApi: { id: 'v', name: 'Vertex account' } },
			),
			{ 'Vertex account': { ...account, region: 'europe-west4' } },
		);
		expect(vertex.tokenRequests[0]).toMatchObject({
			claims: { iss: account.email },
			signatureValid: true,
		});
		expect(vertex.requests).toHaveLength(2);
		expect(vertex.requests[0].authorization).toBe(`Bearer ${vertexAccessToken}`);
		expect(vertex.requests[0].body).toMatchObject({
			systemInstruction: { parts: [{ text: 'You shout.' }] },
			contents: [{ role: 'user', parts: [{ text: prompt }] }],
			generationConfig: { maxOutputTokens: 256, temperature: 0.5 },
		});
		const serialized = JSON.stringify(run);
		expect(serialized).not.toContain(vertexAccessToken);
		expect(serialized).not.toContain('PRIVATE KEY');
	}, 60_000);

	it('AWS Bedrock Chat Model: ConverseStream at the credential’s Bedrock Runtime endpoint', async () => {
		const secretAccessKey = 'e2e/Bedrock+Secret/AccessKey0123456789';
		const before = bedrock.requests.length;
		const run = await runAgentOn(
			modelNode(
				'AWS Bedrock Chat Model',
				'lmChatAwsBedrock',
				1.2,
				{
					model: 'anthropic.claude-3-haiku-20240307-v1:0',
					options: { maxTokensToSample: 256, temperature: 0.5 },
				},
				{ aws: { id: 'aws', name: 'AWS account' } },
			),
			{
				'AWS account': {
					region: 'eu-central-1',
					accessKeyId: 'AKIAE2EPROVIDER00001',
					secretAccessKey,
					temporaryCredentials: false,
					bedrockRuntimeEndpoint: bedrock.endpoint,
				},
			},
		);
		const requests = bedrock.requests.slice(before);
		expect(requests.map((request) => request.operation)).toEqual([
			'converse-stream',
			'converse-stream',
		]);
		expect(requests[0].headers.authorization).toContain('/eu-central-1/bedrock/aws4_request');
		expect(requests[0].body).toMatchObject({
			system: [{ text: 'You shout.' }],
			messages: [{ role: 'user', content: [{ text: prompt }] }],
			inferenceConfig: { maxTokens: 256, temperature: 0.5 },
		});
		expect(bedrockToolResults(requests[1].body)).toEqual([
			{ toolUseId: 'tooluse_shout', content: [{ text: shouted }] },
		]);
		expect(JSON.stringify(run)).not.toContain(secretAccessKey);
	}, 60_000);
});
