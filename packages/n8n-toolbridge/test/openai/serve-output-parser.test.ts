/**
 * `toolbridge serve` on n8n's AI Agent with a Structured Output Parser: the parsed object is the
 * message content (its JSON text) on Chat Completions and Responses, streamed or not (the model's
 * own text is not streamed: it is not the answer), driven by the official `openai` client. Real CLI process, the parser node run by n8n's own code, a loopback fake model
 * that first answers prose, then the JSON the provider's structured-output mode asks for.
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

const token = 'serve-output-parser-token';
const agent = 'City agent';
const lyon = { city: 'Lyon', country: 'France', population: 520000 };

/** Prose to a free call; the object (in the parser's `{ output }` wrapper) when `response_format` asks for JSON. */
function cityModel(request: FakeRequest) {
	return textReply(
		request.body.response_format ? JSON.stringify({ output: lyon }) : 'Lyon is in France.',
	);
}

describe('toolbridge serve: an agent with an output parser (openai client)', () => {
	let model: FakeChatServer;
	let server: ToolbridgeServer;
	let client: OpenAI;

	beforeAll(async () => {
		model = await startFakeChatServer({ respond: cityModel });
		server = await startToolbridgeServer(
			[
				'serve',
				'fixtures/workflows/structured-output-agent.json',
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

	it('Chat Completions: the message content is the parsed object as JSON text', async () => {
		const completion = await client.chat.completions.create({
			model: agent,
			messages: [{ role: 'user', content: 'Tell me about Lyon.' }],
		});
		expect(JSON.parse(completion.choices[0].message.content!)).toEqual(lyon);
		const format = model.requests.at(-1)!.body.response_format;
		expect(format.type).toBe('json_schema');
		expect(Object.keys(format.json_schema.schema.properties.output.properties)).toEqual([
			'city',
			'country',
			'population',
		]);
	});

	it("Chat Completions, streamed: the content is the object as JSON text, not the model's prose", async () => {
		const stream = await client.chat.completions.create({
			model: agent,
			messages: [{ role: 'user', content: 'Tell me about Lyon.' }],
			stream: true,
		});
		let content = '';
		for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
		expect(JSON.parse(content)).toEqual(lyon);
	});

	it('Responses: output_text is the parsed object as JSON text, one final_answer message', async () => {
		const response = await client.responses.create({ model: agent, input: 'Tell me about Lyon.' });
		expect(JSON.parse(response.output_text)).toEqual(lyon);
		const messages = response.output.filter((item) => item.type === 'message');
		expect(messages.map((message) => (message as { phase?: string }).phase)).toEqual([
			'final_answer',
		]);
	});

	it('Responses, streamed: the text deltas and the completed response are the object as JSON text', async () => {
		const stream = await client.responses.create({
			model: agent,
			input: 'Tell me about Lyon.',
			stream: true,
		});
		let deltas = '';
		let completed: OpenAI.Responses.Response | undefined;
		for await (const event of stream) {
			if (event.type === 'response.output_text.delta') deltas += event.delta;
			if (event.type === 'response.completed') completed = event.response;
		}
		expect(JSON.parse(deltas)).toEqual(lyon);
		const [message] = completed!.output.filter((item) => item.type === 'message');
		const [part] = message.type === 'message' ? message.content : [];
		expect(part?.type === 'output_text' && JSON.parse(part.text)).toEqual(lyon);
	});
});
