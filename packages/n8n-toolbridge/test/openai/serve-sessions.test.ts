/**
 * Conversations on `toolbridge serve` (the real CLI processes, the official `openai` client,
 * n8n's AI Agent with Simple Memory from fixtures/workflows/memory-chat-agent.json, the loopback
 * fake model): an `x-session-id` continues the session in the memory (the model's second
 * request holds the first turn, once, although the client resends it), a busy session is a 409
 * SESSION_BUSY, and two server processes sharing `--store` continue each other's Responses
 * (`previous_response_id`, `GET`/`DELETE /v1/responses/{id}`, `conversation`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	startFakeChatServer,
	textReply,
	type FakeChatServer,
	type FakeRequest,
} from '../../../../test/support/fake-chat-server';
import { startToolbridgeServer, type ToolbridgeServer } from '../support/toolbridge-process';

const workflow = 'fixtures/workflows/memory-chat-agent.json';
const agent = 'Chat Agent';

/** Answers `answer to "<the last user message>"`; "slow" messages take 6 s (longer than a busy session's 2 s wait). */
async function echoModel(request: FakeRequest) {
	const messages = request.body.messages as Array<{ role: string; content: string }>;
	const last = messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
	if (last.includes('slow')) await new Promise((resolve) => setTimeout(resolve, 6000));
	return textReply(`answer to "${last}"`);
}

/** The texts of the model request whose last message is `text`. */
function sentWith(model: FakeChatServer, text: string): string[] {
	const request = model.requests.find(
		(each) => (each.body.messages as Array<{ content: string }>).at(-1)?.content === text,
	);
	return ((request?.body.messages ?? []) as Array<{ content: string }>).map((each) => each.content);
}

/**
 * Resolves once the model has received a request ending with `text`: that turn holds its
 * session's lock (a fixed wait is not enough on a loaded machine).
 */
async function modelReceived(model: FakeChatServer, text: string): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (sentWith(model, text).length === 0) {
		if (Date.now() > deadline) throw new Error(`the model never received "${text}"`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe('toolbridge serve: sessions and a shared --store', () => {
	let model: FakeChatServer;
	let first: ToolbridgeServer;
	let second: ToolbridgeServer;
	let clients: [OpenAI, OpenAI];
	const store = mkdtempSync(join(tmpdir(), 'toolbridge-serve-store-'));

	beforeAll(async () => {
		model = await startFakeChatServer({ respond: echoModel });
		const args = ['serve', workflow, '--port', '0', '--store', store, '--base-url', model.baseUrl];
		const env = { OPENAI_API_KEY: 'sk-fake', TOOLBRIDGE_MODEL: 'fake/memory' };
		[first, second] = await Promise.all([
			startToolbridgeServer([...args, '--api-key', 'sk-fake', '--model', 'fake/memory'], env),
			startToolbridgeServer([...args, '--api-key', 'sk-fake', '--model', 'fake/memory'], env),
		]);
		clients = [first, second].map(
			(server) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 }),
		) as [OpenAI, OpenAI];
	}, 120_000);

	afterAll(async () => {
		await Promise.all([first?.stop(), second?.stop()]);
		await model?.close();
	});

	it('x-session-id: the second turn reaches the model holding the first, once (the session wins over resent history)', async () => {
		const headers = { 'x-session-id': 'chat-session-1' };
		const one = await clients[0].chat.completions.create(
			{ model: agent, messages: [{ role: 'user', content: 'I am Ada' }] },
			{ headers },
		);
		expect(one.choices[0]?.message.content).toBe('answer to "I am Ada"');
		// The second turn on the other server, the client resending its history as chat apps do.
		await clients[1].chat.completions.create(
			{
				model: agent,
				messages: [
					{ role: 'user', content: 'I am Ada' },
					{ role: 'assistant', content: 'answer to "I am Ada"' },
					{ role: 'user', content: 'who am I?' },
				],
			},
			{ headers },
		);
		const sent = sentWith(model, 'who am I?');
		expect(sent.filter((text) => text === 'I am Ada')).toHaveLength(1);
		expect(sent.filter((text) => text === 'answer to "I am Ada"')).toHaveLength(1);
	}, 60_000);

	it('a second request on a busy session gets 409 SESSION_BUSY', async () => {
		const headers = { 'x-session-id': 'busy-session' };
		const slow = clients[0].chat.completions
			.create({ model: agent, messages: [{ role: 'user', content: 'slow question' }] }, { headers })
			.then(
				(answer) => answer.choices[0]?.message.content,
				(error: Error) => error,
			);
		await modelReceived(model, 'slow question');
		const refused = await clients[1].chat.completions
			.create({ model: agent, messages: [{ role: 'user', content: 'meanwhile' }] }, { headers })
			.then(
				() => undefined,
				(error: { status?: number; code?: string }) => error,
			);
		expect(refused).toMatchObject({ status: 409, code: 'SESSION_BUSY' });
		expect(await slow).toBe('answer to "slow question"');
	}, 60_000);

	it('previous_response_id, GET and DELETE work across two server processes sharing the store', async () => {
		const created = await clients[0].responses.create({ model: agent, input: 'remember 42' });
		const next = await clients[1].responses.create({
			model: agent,
			input: 'what number?',
			previous_response_id: created.id,
		});
		expect(next.output_text).toBe('answer to "what number?"');
		expect(sentWith(model, 'what number?')).toEqual(
			expect.arrayContaining(['remember 42', 'answer to "remember 42"']),
		);
		expect((await clients[1].responses.retrieve(created.id)).id).toBe(created.id);
		await clients[1].responses.delete(created.id);
		await expect(clients[0].responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
	}, 60_000);

	it('conversation: each turn extends the conversation the servers keep under its id', async () => {
		const body = (input: string) => ({ model: agent, input, conversation: 'conv-7' }) as never;
		await clients[0].responses.create(body('first of conv-7'));
		await clients[1].responses.create(body('second of conv-7'));
		expect(sentWith(model, 'second of conv-7')).toEqual(
			expect.arrayContaining(['first of conv-7', 'answer to "first of conv-7"']),
		);
		// One turn at a time: a request on the conversation while one answers is a 409.
		const slow = clients[0].responses.create(body('slow turn of conv-7')).then(
			(answer) => answer.output_text,
			(error: Error) => error,
		);
		await modelReceived(model, 'slow turn of conv-7');
		await expect(clients[1].responses.create(body('meanwhile'))).rejects.toMatchObject({
			status: 409,
			code: 'SESSION_BUSY',
		});
		expect(await slow).toBe('answer to "slow turn of conv-7"');
	}, 60_000);
});
