/**
 * `toolbridge serve` with the official `openai` client 7.x (the line the OpenAI Agents SDK
 * brings; stricter than 6.x about stream ids): Chat Completions and Responses, each created
 * and streamed with the client's own helpers.
 */
import OpenAI from 'openai';
import { VERSION } from 'openai/version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	agentModel,
	hashAnswer,
	serveToken,
	startHashingServe,
	type HashingServe,
} from '../../n8n-toolbridge/test/support/hashing-serve';

describe(`toolbridge serve with openai ${VERSION}`, () => {
	let serve: HashingServe;
	let client: OpenAI;

	beforeAll(async () => {
		serve = await startHashingServe();
		client = new OpenAI({ baseURL: serve.baseURL, apiKey: serveToken, maxRetries: 0 });
	}, 120_000);

	afterAll(async () => {
		expect(await serve?.stop()).toBe(0);
	});

	it('is the 7.x line', () => {
		expect(VERSION).toMatch(/^7\./);
	});

	it('chat.completions.create and chat.completions.stream', async () => {
		const messages = [{ role: 'user' as const, content: 'Hash "seven"' }];
		const completion = await client.chat.completions.create({ model: agentModel, messages });
		expect(completion.choices[0].message.content).toBe(hashAnswer('seven'));
		const stream = client.chat.completions.stream({
			model: agentModel,
			messages,
			stream_options: { include_usage: true },
		});
		let streamed = '';
		stream.on('content', (delta) => (streamed += delta));
		const final = await stream.finalChatCompletion();
		expect(streamed).toBe(hashAnswer('seven'));
		expect(final.choices[0].message.content).toBe(hashAnswer('seven'));
		expect(final.usage?.total_tokens).toBeGreaterThan(0);
	});

	it('responses.create, and previous_response_id', async () => {
		const first = await client.responses.create({ model: agentModel, input: 'Hash "seven"' });
		expect(first.output.map((item) => item.type)).toEqual(['mcp_call', 'message']);
		expect(first.output_text).toBe(hashAnswer('seven'));
		const second = await client.responses.create({
			model: agentModel,
			input: 'Hash "eight"',
			previous_response_id: first.id,
		});
		expect(second.output_text).toBe(hashAnswer('eight'));
		const history = serve.model.requests.at(-2)!.body.messages.slice(1, 3);
		expect(history).toEqual([
			{ role: 'user', content: 'Hash "seven"' },
			{ role: 'assistant', content: hashAnswer('seven') },
		]);
	});

	it('responses.stream: every event accepted (ids checked by 7.x), the final response whole', async () => {
		const stream = client.responses.stream({ model: agentModel, input: 'Hash "preamble"' });
		let text = '';
		const types: string[] = [];
		stream.on('event', (event) => types.push(event.type));
		stream.on('response.output_text.delta', (event) => (text += event.delta));
		const final = await stream.finalResponse();
		expect(types[0]).toBe('response.created');
		expect(types.at(-1)).toBe('response.completed');
		expect(text).toBe(`Let me hash it.${hashAnswer('preamble')}`);
		expect(final.output.map((item) => item.type)).toEqual(['message', 'mcp_call', 'message']);
		expect(final.output_text).toBe(`Let me hash it.${hashAnswer('preamble')}`);
	});
});
