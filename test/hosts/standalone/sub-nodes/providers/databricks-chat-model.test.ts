/**
 * n8n's Databricks Chat Model (`lmChatDatabricks`) in the standalone host: the real node mints
 * a service principal's token (OAuth2 client credentials at the workspace's `/oidc/v1/token`)
 * and builds n8n's ChatOpenAI over the workspace's AI Gateway (`/ai-gateway/openai/v1`, a
 * Chat Completions endpoint) with its refreshing-auth fetch. The node accepts only an https
 * host, so both are intercepted by nock at a made-up workspace host; nothing leaves the process.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StandaloneHost } from '../../../../../src/hosts/standalone/standalone-host';
import { textReply, toolCallReply, type FakeReply } from '../../../../support/fake-chat-server';
import { langChainNode } from '../sub-node-workflows';
import {
	runWithWeatherTool,
	supplyChatModel,
	userMessage,
	weatherObservation,
} from './supply-chat-model';

const workspace = 'https://dbc-fake-4711.cloud.databricks.com';
const clientSecret = 'dose-fake-databricks-client-secret';
const accessToken = 'eyJfake.databricks.access-token';
const modelId = 'databricks-claude-sonnet-4';

/** A fake chat server reply's chunks as the SSE body Chat Completions streams. */
function sseBody(reply: FakeReply): string {
	return `${(reply.chunks ?? []).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
}

let host: StandaloneHost;

beforeAll(async () => {
	nock.disableNetConnect();
	nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
	host = await StandaloneHost.create({
		credentials: {
			'Databricks fake': {
				host: workspace,
				grantType: 'clientCredentials',
				clientId: 'fake-service-principal',
				clientSecret,
				scope: 'all-apis',
				authentication: 'header',
				accessTokenUrl: `${workspace}/oidc/v1/token`,
			},
		},
		env: {},
	});
});

afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('the Databricks Chat Model node, supplied standalone and driven by our loop', () => {
	it('mints a service-principal token, then runs a tool call, its result and the answer over the AI Gateway', async () => {
		const tokenRequests: Array<{ body: string; authorization: string }> = [];
		const chatRequests: Array<{ path: string; authorization: string; body: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- request bodies are arbitrary JSON
		nock(workspace)
			.persist()
			.post('/oidc/v1/token')
			.reply(function (_path, body) {
				tokenRequests.push({
					body: typeof body === 'string' ? body : new URLSearchParams(body as never).toString(),
					authorization: String(this.req.headers.authorization ?? ''),
				});
				return [200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 }];
			})
			.post('/ai-gateway/openai/v1/chat/completions')
			.reply(function (path, body) {
				const parsed = typeof body === 'string' ? JSON.parse(body) : body;
				chatRequests.push({
					path,
					authorization: String(this.req.headers.authorization ?? ''),
					body: parsed,
				});
				const result = (parsed.messages as Array<{ role: string; content: string }>).find(
					(message) => message.role === 'tool',
				);
				const reply = result
					? textReply(`It is ${result.content}.`, {
							model: modelId,
							usage: { prompt_tokens: 52, completion_tokens: 8, total_tokens: 60 },
						})
					: toolCallReply(
							[{ id: 'call_weather_1', name: 'get_weather', arguments: { city: 'Paris' } }],
							{
								model: modelId,
								usage: { prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 },
							},
						);
				return [200, sseBody(reply), { 'Content-Type': 'text/event-stream' }];
			});
		const node = langChainNode(
			'Databricks Chat Model',
			'lmChatDatabricks',
			1,
			{
				model: { __rl: true, mode: 'id', value: modelId },
				options: { maxTokens: 222, temperature: 0.15 },
			},
			{ databricksOAuth2Api: { id: 'd', name: 'Databricks fake' } },
		);
		const { model, close } = await supplyChatModel(host, node);
		const { result, toolCalls, events } = await runWithWeatherTool(model, modelId);
		await close();

		expect(toolCalls).toEqual([{ city: 'Paris' }]);
		expect(result.output).toBe(`It is ${weatherObservation}.`);
		expect(tokenRequests).toHaveLength(1);
		expect(tokenRequests[0].body).toContain('grant_type=client_credentials');
		expect(chatRequests).toHaveLength(2);
		for (const request of chatRequests) {
			expect(request.authorization).toBe(`Bearer ${accessToken}`);
			expect(request.body).toMatchObject({
				model: modelId,
				stream: true,
				max_tokens: 222,
				temperature: 0.15,
			});
		}
		expect(chatRequests[0].body.messages).toEqual([{ role: 'user', content: userMessage }]);
		expect(chatRequests[0].body.tools[0].function.name).toBe('get_weather');
		expect(chatRequests[1].body.messages).toContainEqual({
			role: 'tool',
			tool_call_id: 'call_weather_1',
			content: weatherObservation,
		});
		expect(result.usage).toMatchObject({ promptTokens: 83, completionTokens: 15, totalTokens: 98 });
		const outputs = JSON.stringify({ result, events });
		expect(outputs).not.toContain(clientSecret);
		expect(outputs).not.toContain(accessToken);
	});
});
