/**
 * `toolbridge serve` driven by the official `openai` npm client: the real CLI process, the
 * agent loop with real n8n nodes, and the loopback fake model (test/support/fake-chat-server)
 * as the agent's own model server.
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { startLoopbackApi, type LoopbackApi } from '../support/loopback-api';
import {
	runToolbridge,
	startToolbridgeServer,
	type ToolbridgeServer,
} from '../support/toolbridge-process';

const token = 'serve-token-7c2e';
const apiKey = 'sk-fake-model-key';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function lastToolResult(request: FakeRequest): string {
	const tools = (request.body.messages as Array<{ role: string; content: string }>).filter(
		(message) => message.role === 'tool',
	);
	return tools.at(-1)?.content ?? '';
}

/** Asks for Hash_text of the user's quoted word, then answers with what the tool returned. */
function hashingModel(request: FakeRequest) {
	const messages = request.body.messages as Array<{ role: string; content: string }>;
	if (messages.at(-1)?.role === 'tool') return textReply(`Hash: ${lastToolResult(request)}`);
	const word = /"([^"]+)"/.exec(messages.at(-1)?.content ?? '')?.[1] ?? 'nothing';
	if (word === 'slow') return { ...textReply('Slow answer.'), chunkDelayMs: 400 };
	// A model that repeats its own key, in deltas of 3 characters: the key is split across them.
	if (word === 'leak') return textReply(`My key is ${apiKey}, as asked.`, { deltaSize: 3 });
	return toolCallReply([
		{ id: `call_${request.index}`, name: 'Hash_text', arguments: { text: word } },
	]);
}

describe('toolbridge serve (openai client)', () => {
	let model: FakeChatServer;
	let server: ToolbridgeServer;
	let client: OpenAI;

	beforeAll(async () => {
		model = await startFakeChatServer({ respond: hashingModel });
		server = await startToolbridgeServer(
			[
				'serve',
				'fixtures/workflows/crypto-agent.json',
				'--port',
				'0',
				'--base-url',
				model.baseUrl,
				'--api-key',
				apiKey,
				'--max-concurrency',
				'1',
			],
			{
				TOOLBRIDGE_TOKEN: token,
			},
		);
		client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: token, maxRetries: 0 });
	}, 120_000);

	afterAll(async () => {
		expect(await server?.stop()).toBe(0);
		await model?.close();
	});

	it('models.list: one model per agent', async () => {
		const models = [];
		for await (const entry of client.models.list()) models.push(entry);
		expect(models).toEqual([
			{
				id: 'Agent Orchestrator',
				object: 'model',
				created: expect.any(Number),
				owned_by: 'toolbridge',
			},
		]);
	});

	it('create: the loop and its real tool run server-side; the answer, usage and finish_reason come back', async () => {
		const before = model.requests.length;
		const completion = await client.chat.completions.create({
			model: 'Agent Orchestrator',
			messages: [
				{ role: 'system', content: 'You are a pirate.' },
				{ role: 'user', content: 'Earlier question' },
				{ role: 'assistant', content: 'Earlier answer' },
				{ role: 'user', content: 'SHA-256 of "hello"' },
			],
			temperature: 1.5,
		});
		const expected = `Hash: ${JSON.stringify([{ hash: sha256('hello') }])}`;
		expect(completion).toMatchObject({
			object: 'chat.completion',
			model: 'Agent Orchestrator',
			choices: [
				{ index: 0, message: { role: 'assistant', content: expected }, finish_reason: 'stop' },
			],
		});
		expect(completion.id).toMatch(/^chatcmpl-/);
		expect(completion.usage?.total_tokens).toBeGreaterThan(0);
		const [first, second] = model.requests.slice(before);
		// The workflow's system message and model settings; the request's history before the prompt.
		expect(first.body.messages).toEqual([
			{ role: 'system', content: expect.stringMatching(/^You hash texts with the tools/) },
			{ role: 'user', content: 'Earlier question' },
			{ role: 'assistant', content: 'Earlier answer' },
			{ role: 'user', content: 'SHA-256 of "hello"' },
		]);
		expect(first.body).toMatchObject({ model: 'openai/gpt-4.1-mini', temperature: 0.2 });
		expect(first.headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(lastToolResult(second)).toBe(JSON.stringify([{ hash: sha256('hello') }]));
	});

	it('create with stream: chat.completion.chunk events, the usage chunk last, then [DONE]', async () => {
		const stream = await client.chat.completions.create({
			model: 'Agent Orchestrator',
			messages: [{ role: 'user', content: 'Hash "streamed"' }],
			stream: true,
			stream_options: { include_usage: true },
		});
		const chunks = [];
		for await (const chunk of stream) chunks.push(chunk);
		expect(chunks[0]).toMatchObject({
			object: 'chat.completion.chunk',
			choices: [{ delta: { role: 'assistant', content: '' }, finish_reason: null }],
			usage: null,
		});
		const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
		expect(text).toBe(`Hash: ${JSON.stringify([{ hash: sha256('streamed') }])}`);
		expect(chunks.at(-2)).toMatchObject({ choices: [{ delta: {}, finish_reason: 'stop' }] });
		expect(chunks.at(-1)).toMatchObject({
			choices: [],
			usage: {
				prompt_tokens: expect.any(Number),
				completion_tokens: expect.any(Number),
				total_tokens: expect.any(Number),
			},
		});
		expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
	});

	it('the model key never reaches the client, streamed (split across deltas) or not', async () => {
		const messages = [{ role: 'user' as const, content: 'say "leak"' }];
		const expected = 'My key is [REDACTED], as asked.';
		const whole = await client.chat.completions.create({ model: 'Agent Orchestrator', messages });
		expect(whole.choices[0].message.content).toBe(expected);
		const stream = await client.chat.completions.create({
			model: 'Agent Orchestrator',
			messages,
			stream: true,
		});
		const deltas: string[] = [];
		for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
		expect(deltas.join('')).toBe(expected);
		expect(deltas.join('')).not.toContain(apiKey.slice(0, 6));
	});

	it("error statuses in OpenAI's shape: 404 unknown model, 400 for client-side tools, 401 without the token", async () => {
		const unknown = await client.chat.completions
			.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
			.catch((error: unknown) => error);
		expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
		expect(unknown).toMatchObject({
			status: 404,
			code: 'model_not_found',
			param: 'model',
			type: 'invalid_request_error',
		});
		expect((unknown as Error).message).toContain(
			"the models are this workflow's agents (Agent Orchestrator)",
		);

		const tools = await client.chat.completions
			.create({
				model: 'Agent Orchestrator',
				messages: [{ role: 'user', content: 'hi' }],
				tools: [{ type: 'function', function: { name: 'x', parameters: { type: 'object' } } }],
			})
			.catch((error: unknown) => error);
		expect(tools).toBeInstanceOf(OpenAI.BadRequestError);
		expect(tools).toMatchObject({ status: 400, param: 'tools' });

		const anonymous = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'wrong', maxRetries: 0 });
		await expect(anonymous.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
	});

	it('429 with Retry-After when every slot is busy', async () => {
		const slow = client.chat.completions.create({
			model: 'Agent Orchestrator',
			messages: [{ role: 'user', content: 'answer "slow"' }],
		});
		await expect
			.poll(() => model.requests.at(-1)?.body.messages.at(-1).content, { timeout: 20_000 })
			.toBe('answer "slow"');
		const busy = await client.chat.completions
			.create({ model: 'Agent Orchestrator', messages: [{ role: 'user', content: 'hi' }] })
			.catch((error: unknown) => error);
		expect(busy).toBeInstanceOf(OpenAI.RateLimitError);
		expect((busy as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe(
			'1',
		);
		expect((await slow).choices[0].message.content).toBe('Slow answer.');
	});

	it('a client that trickles its body holds no slot: others are served meanwhile', async () => {
		const { hostname, port } = new URL(server.url);
		const socket = connect(Number(port), hostname);
		await new Promise((resolve) => socket.once('connect', resolve));
		const body = JSON.stringify({
			model: 'Agent Orchestrator',
			messages: [{ role: 'user', content: 'hi' }],
		});
		socket.write(
			`POST /v1/chat/completions HTTP/1.1\r\nHost: ${server.url.slice(7)}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
		);
		try {
			await new Promise((resolve) => setTimeout(resolve, 300));
			const completion = await client.chat.completions.create({
				model: 'Agent Orchestrator',
				messages: [{ role: 'user', content: 'Hash "meanwhile"' }],
			});
			expect(completion.choices[0].message.content).toContain(sha256('meanwhile'));
		} finally {
			socket.destroy();
		}
	});
});

describe('toolbridge serve: a client that disconnects stops the run', () => {
	let model: FakeChatServer;
	let api: LoopbackApi;
	let server: ToolbridgeServer;

	beforeAll(async () => {
		api = await startLoopbackApi();
		// The model asks for the HTTP tool, slowly: the client is gone before the call is complete.
		model = await startFakeChatServer({
			respond: () => ({
				...toolCallReply(
					[{ name: 'Fetch_item', arguments: { url: `http://${api.host}/items/7` } }],
					{ deltaSize: 4 },
				),
				chunkDelayMs: 150,
			}),
		});
		server = await startToolbridgeServer(
			[
				'serve',
				'fixtures/workflows/http-tools.json',
				'--port',
				'0',
				'--base-url',
				model.baseUrl,
				'--api-key',
				apiKey,
				'--allow-private-network',
			],
			{
				TOOLBRIDGE_CREDENTIALS: JSON.stringify({
					'Inventory API key': { name: 'X-Api-Key', value: 'k' },
				}),
			},
		);
	}, 120_000);

	afterAll(async () => {
		await server?.stop();
		await model?.close();
		await api?.close();
	});

	it('the model call is aborted and no tool starts', async () => {
		const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
		const controller = new AbortController();
		const stream = await client.chat.completions.create(
			{ model: 'AI Agent', messages: [{ role: 'user', content: 'Item 7?' }], stream: true },
			{ signal: controller.signal },
		);
		await expect.poll(() => model.requests.length, { timeout: 20_000 }).toBe(1);
		controller.abort();
		// The client's stream ends (or throws, by client version) once it is aborted.
		await (async () => {
			for await (const _chunk of stream) {
				// drain
			}
		})().catch(() => {});
		await model.requests[0].closed;
		await expect
			.poll(() => server.stderr(), { timeout: 10_000 })
			.toContain('aborted (client gone)');
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(api.received).toEqual([]);
		expect(model.requests).toHaveLength(1);
	});
});

describe('toolbridge serve refuses to listen beyond loopback without a token', () => {
	it('exit 2', async () => {
		const result = await runToolbridge([
			'serve',
			'fixtures/workflows/crypto-agent.json',
			'--host',
			'0.0.0.0',
			'--port',
			'0',
		]);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('Refusing to listen on 0.0.0.0 without a token');
	});
});
