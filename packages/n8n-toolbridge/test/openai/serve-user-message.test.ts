/**
 * `toolbridge serve` never answers a question it was not asked: an agent whose prompt reads
 * `{{ $json.body.text }}` (a Webhook's field; the agent has no tools) gets the request's last
 * user message as its user message, on both APIs, driven by the official `openai` client. The
 * `agent_input` extension field is the item the node receives. Real CLI process, a loopback
 * fake as the agent's model.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { startToolbridgeServer, type ToolbridgeServer } from '../support/toolbridge-process';

const token = 'serve-user-message-token';
const agent = 'Answer agent';

/** Answers what it was asked: the text of the last user message it received. */
function echoingModel(request: FakeRequest) {
	const messages = request.body.messages as Array<{ role: string; content: string }>;
	return textReply(`You asked: ${messages.at(-1)?.content}`);
}

describe('toolbridge serve: the user message (openai client)', () => {
	let model: FakeChatServer;
	let server: ToolbridgeServer;
	let client: OpenAI;

	beforeAll(async () => {
		model = await startFakeChatServer({ respond: echoingModel });
		server = await startToolbridgeServer(
			[
				'serve',
				'fixtures/workflows/webhook-agent-no-tools.json',
				'--port',
				'0',
				'--base-url',
				model.baseUrl,
				'--api-key',
				'sk-fake-model-key',
			],
			{ TOOLBRIDGE_TOKEN: token },
		);
		client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
	}, 120_000);

	afterAll(async () => {
		expect(await server?.stop()).toBe(0);
		await model?.close();
	});

	/** The messages of the model request the last API call made. */
	const received = () => model.requests.at(-1)!.body.messages;

	it('Chat Completions: the model receives the question asked, not the half-empty template', async () => {
		const completion = await client.chat.completions.create({
			model: agent,
			messages: [{ role: 'user', content: 'What is 2+2*3?' }],
		});
		expect(received()).toEqual([
			{ role: 'system', content: 'You answer questions sent to the  channel.' },
			{ role: 'user', content: 'What is 2+2*3?' },
		]);
		expect(model.requests.at(-1)!.body.tools).toBeUndefined();
		expect(completion.choices[0].message.content).toBe('You asked: What is 2+2*3?');
	});

	it('Responses: the model receives the question asked', async () => {
		const response = await client.responses.create({ model: agent, input: 'What is 2+2*3?' });
		expect(received()).toEqual([
			{ role: 'system', content: 'You answer questions sent to the  channel.' },
			{ role: 'user', content: 'What is 2+2*3?' },
		]);
		expect(response.output_text).toBe('You asked: What is 2+2*3?');
	});

	it('agent_input (extension field, both APIs) is the item the node receives: its own prompt is sent, resolved over it', async () => {
		const item = { body: { text: 'What is 6*7?', channel: 'support' } };
		const completion = await client.chat.completions.create({
			model: agent,
			messages: [{ role: 'user', content: 'hello' }],
			agent_input: item,
		} as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
		expect(received()).toEqual([
			{ role: 'system', content: 'You answer questions sent to the support channel.' },
			{ role: 'user', content: 'What is 6*7?' },
		]);
		expect(completion.choices[0].message.content).toBe('You asked: What is 6*7?');
		await client.responses.create({
			model: agent,
			input: 'hello',
			agent_input: item,
		} as OpenAI.Responses.ResponseCreateParamsNonStreaming);
		expect(received().at(-1)).toEqual({ role: 'user', content: 'What is 6*7?' });
		expect(server.stderr()).toContain("sent the node's prompt (agent_input)");
	});

	it('a bad agent_input or agent_pins is a 400 naming the field', async () => {
		const before = model.requests.length;
		await expect(
			client.chat.completions.create({
				model: agent,
				messages: [{ role: 'user', content: 'hello' }],
				agent_input: 'not an object',
			} as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming),
		).rejects.toMatchObject({ status: 400, param: 'agent_input' });
		await expect(
			client.responses.create({
				model: agent,
				input: 'hello',
				agent_pins: { Webhook: 3 },
			} as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming),
		).rejects.toMatchObject({ status: 400, param: 'agent_pins' });
		expect(model.requests.length).toBe(before);
	});
});
