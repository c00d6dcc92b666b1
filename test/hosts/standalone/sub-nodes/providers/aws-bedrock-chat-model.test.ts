/**
 * n8n's AWS Bedrock Chat Model (`lmChatAwsBedrock`) in the standalone host: the real node builds
 * its Bedrock runtime client and ChatBedrockConverse (n8n's code, the user's `aws` credential),
 * and our loop drives it over ConverseStream — AWS event-stream binary framing, SigV4-signed
 * requests. Through the credential's Bedrock Runtime endpoint override at a loopback fake, and
 * without it at `bedrock-runtime.<region>.amazonaws.com` intercepted by nock.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StandaloneHost } from '../../../../../src/hosts/standalone/standalone-host';
import {
	bedrockError,
	bedrockReply,
	bedrockToolResults,
	bedrockToolSpecs,
	bedrockToolUses,
	parseBedrockPath,
	startFakeBedrock,
	type BedrockHttpReply,
	type FakeBedrock,
} from '../../../../support/provider-fakes/fake-bedrock-converse';
import { langChainNode } from '../sub-node-workflows';
import {
	runWithWeatherTool,
	supplyChatModel,
	userMessage,
	weatherObservation,
} from './supply-chat-model';

const accessKeyId = 'AKIAFAKEPROVIDER0001';
const secretAccessKey = 'fake/Provider+Secret/AccessKey0123456789';
const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';

/** Tool use first, then the answer quoting the tool result. */
function respond(operation: string, body: { messages?: unknown[] }): BedrockHttpReply {
	const results = bedrockToolResults(body);
	if (results.length === 0)
		return bedrockReply(
			operation,
			[
				{ text: 'Let me look that up.' },
				{
					toolUse: {
						toolUseId: 'tooluse_weather_1',
						name: 'get_weather',
						input: { city: 'Paris' },
					},
				},
			],
			{ usage: { inputTokens: 44, outputTokens: 17 } },
		);
	const text = results[0].content.map((block: { text?: string }) => block.text ?? '').join('');
	return bedrockReply(operation, [{ text: `It is ${text}.` }], {
		usage: { inputTokens: 80, outputTokens: 10 },
	});
}

let bedrock: FakeBedrock;
let host: StandaloneHost;

beforeAll(async () => {
	// Only loopback may be reached: an unintercepted AWS request fails instead of leaving.
	nock.disableNetConnect();
	nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
	bedrock = await startFakeBedrock((request) =>
		request.modelId === 'unknown.model'
			? bedrockError(400, 'ValidationException', 'The provided model identifier is invalid.')
			: respond(request.operation, request.body),
	);
	const credential = {
		region: 'us-east-1',
		accessKeyId,
		secretAccessKey,
		temporaryCredentials: false,
	};
	host = await StandaloneHost.create({
		credentials: {
			'AWS fake endpoint': { ...credential, bedrockRuntimeEndpoint: bedrock.endpoint },
			'AWS real host': credential,
		},
		env: {},
	});
});

afterAll(async () => {
	nock.enableNetConnect();
	await bedrock.close();
});
afterEach(() => nock.cleanAll());

const bedrockNode = (credentialName: string, model = modelId) =>
	langChainNode(
		'AWS Bedrock Chat Model',
		'lmChatAwsBedrock',
		1.2,
		{ model, options: { maxTokensToSample: 400, temperature: 0.1, topP: 0.9 } },
		{ aws: { id: 'aws', name: credentialName } },
	);

describe('the AWS Bedrock Chat Model node, supplied standalone and driven by our loop', () => {
	it('streams a tool use over ConverseStream (event-stream framing), sends the tool result back, and answers', async () => {
		const before = bedrock.requests.length;
		const { model, close } = await supplyChatModel(host, bedrockNode('AWS fake endpoint'));
		const { result, toolCalls, events } = await runWithWeatherTool(model, modelId);
		await close();

		expect(toolCalls).toEqual([{ city: 'Paris' }]);
		expect(result.output).toBe(`It is ${weatherObservation}.`);
		const requests = bedrock.requests.slice(before);
		expect(requests).toHaveLength(2);
		for (const request of requests) {
			expect(request.method).toBe('POST');
			expect(request.path).toBe(`/model/${encodeURIComponent(modelId)}/converse-stream`);
			// SigV4 with the credential's key id and region; the secret itself never travels.
			expect(request.headers.authorization).toMatch(
				new RegExp(
					`^AWS4-HMAC-SHA256 Credential=${accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$`,
				),
			);
			expect(request.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
			expect(JSON.stringify(request)).not.toContain(secretAccessKey);
			// The node's options reach the wire.
			expect(request.body.inferenceConfig).toEqual({ maxTokens: 400, temperature: 0.1, topP: 0.9 });
		}
		const [first, second] = requests;
		expect(first.body.messages).toEqual([{ role: 'user', content: [{ text: userMessage }] }]);
		expect(bedrockToolSpecs(first.body).get('get_weather')).toMatchObject({
			description: 'The current weather in a city',
			inputSchema: {
				json: {
					type: 'object',
					properties: { city: { type: 'string', description: 'City name' } },
					required: ['city'],
				},
			},
		});
		expect(bedrockToolUses(second.body)).toEqual([
			{ toolUseId: 'tooluse_weather_1', name: 'get_weather', input: { city: 'Paris' } },
		]);
		expect(bedrockToolResults(second.body)).toEqual([
			{ toolUseId: 'tooluse_weather_1', content: [{ text: weatherObservation }] },
		]);
		expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(2);
		expect(result.usage).toMatchObject({
			promptTokens: 44 + 80,
			completionTokens: 17 + 10,
			totalTokens: 44 + 17 + 80 + 10,
		});
		expect(JSON.stringify({ result, events })).not.toContain(secretAccessKey);
	});

	it('without an endpoint override it signs for and calls bedrock-runtime.<region>.amazonaws.com (nock)', async () => {
		const seen: Array<{ path: string; authorization: string; body: { messages?: unknown[] } }> = [];
		nock('https://bedrock-runtime.us-east-1.amazonaws.com')
			.post(/^\/model\/[^/]+\/converse-stream$/)
			.times(2)
			.reply(function (path, body) {
				const parsed = (typeof body === 'string' ? JSON.parse(body) : body) as {
					messages?: unknown[];
				};
				seen.push({ path, authorization: String(this.req.headers.authorization), body: parsed });
				const reply = respond(parseBedrockPath(path).operation, parsed);
				return [reply.status, reply.body, reply.headers];
			});
		const { model, close } = await supplyChatModel(host, bedrockNode('AWS real host'));
		const { result } = await runWithWeatherTool(model, modelId);
		await close();

		expect(result.output).toBe(`It is ${weatherObservation}.`);
		expect(seen.map((request) => request.path)).toEqual([
			`/model/${encodeURIComponent(modelId)}/converse-stream`,
			`/model/${encodeURIComponent(modelId)}/converse-stream`,
		]);
		expect(seen[0].authorization).toContain(`Credential=${accessKeyId}/`);
		expect(seen[0].authorization).toContain('/us-east-1/bedrock/aws4_request');
		expect(nock.isDone()).toBe(true);
	});

	it('a Bedrock error fails the run once, with Bedrock’s own message', async () => {
		const before = bedrock.requests.length;
		const { model, close } = await supplyChatModel(
			host,
			bedrockNode('AWS fake endpoint', 'unknown.model'),
		);
		await expect(runWithWeatherTool(model, 'unknown.model')).rejects.toThrow(
			'The provided model identifier is invalid.',
		);
		expect(bedrock.requests.length - before).toBe(1);
		await close();
	});

	it('without its credential the node says so', async () => {
		const bare = { ...bedrockNode('AWS fake endpoint'), credentials: undefined };
		await expect(supplyChatModel(host, bare)).rejects.toThrow(/credential/i);
	});
});
