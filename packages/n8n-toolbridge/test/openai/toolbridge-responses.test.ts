/**
 * `POST /v1/responses` on `toolbridge serve`, driven by the official `openai` client (6.x; 7.x
 * and the Agents SDK run in test/real-clients): the real CLI process, the agent loop with a
 * real n8n node as its tool, a loopback fake as the agent's model.
 */
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	agentModel,
	hashAnswer,
	modelKey,
	serveToken,
	sha256,
	startHashingServe,
	type HashingServe,
} from '../support/hashing-serve';

describe('toolbridge serve: POST /v1/responses (openai client)', () => {
	let serve: HashingServe;
	let client: OpenAI;

	beforeAll(async () => {
		serve = await startHashingServe(['--max-concurrency', '2']);
		client = new OpenAI({ baseURL: serve.baseURL, apiKey: serveToken, maxRetries: 0 });
	}, 120_000);

	afterAll(async () => {
		expect(await serve?.stop()).toBe(0);
	});

	it('create: the tool runs server-side (an mcp_call item), then the answer, usage and output_text', async () => {
		const response = await client.responses.create({
			model: agentModel,
			input: 'SHA-256 of "hello"',
			instructions: 'You are a pirate.',
			include: ['reasoning.encrypted_content'],
		});
		expect(response).toMatchObject({
			object: 'response',
			status: 'completed',
			model: agentModel,
			instructions: 'You are a pirate.',
			store: true,
			error: null,
		});
		expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
		expect(response.output).toEqual([
			{
				id: expect.stringMatching(/^mcp_/),
				type: 'mcp_call',
				status: 'completed',
				server_label: 'toolbridge',
				name: 'Hash_text',
				arguments: JSON.stringify({ text: 'hello' }),
				output: JSON.stringify([{ hash: sha256('hello') }]),
				error: null,
				approval_request_id: null,
			},
			{
				id: expect.stringMatching(/^msg_/),
				type: 'message',
				status: 'completed',
				role: 'assistant',
				phase: 'final_answer',
				content: [
					{ type: 'output_text', text: hashAnswer('hello'), annotations: [], logprobs: [] },
				],
			},
		]);
		expect(response.output_text).toBe(hashAnswer('hello'));
		expect(response.usage).toMatchObject({
			input_tokens: expect.any(Number),
			output_tokens: expect.any(Number),
			total_tokens: expect.any(Number),
		});
		expect(response.usage!.total_tokens).toBeGreaterThan(0);
		// The workflow's system message, not the request's instructions.
		const first = serve.model.requests.find((request) =>
			request.body.messages.some(
				(message: { content: string }) => message.content === 'SHA-256 of "hello"',
			),
		)!;
		expect(first.body.messages[0].content).toMatch(/^You hash texts with the tools/);
		expect(JSON.stringify(first.body)).not.toContain('pirate');
	});

	it('input items are the history; previous_response_id continues a stored conversation; store: false keeps nothing', async () => {
		const before = serve.model.requests.length;
		const first = await client.responses.create({
			model: agentModel,
			input: [
				{ role: 'system', content: 'ignored' },
				{ role: 'user', content: [{ type: 'input_text', text: 'Earlier question' }] },
				{ role: 'assistant', content: 'Earlier answer' },
				{ role: 'user', content: [{ type: 'input_text', text: 'Hash "one"' }] },
			],
		});
		expect(serve.model.requests[before].body.messages.slice(1)).toEqual([
			{ role: 'user', content: 'Earlier question' },
			{ role: 'assistant', content: 'Earlier answer' },
			{ role: 'user', content: 'Hash "one"' },
		]);
		const middle = serve.model.requests.length;
		const second = await client.responses.create({
			model: agentModel,
			previous_response_id: first.id,
			input: 'Hash "two"',
			store: false,
		});
		expect(second).toMatchObject({ previous_response_id: first.id, store: false });
		expect(serve.model.requests[middle].body.messages.slice(1)).toEqual([
			{ role: 'user', content: 'Earlier question' },
			{ role: 'assistant', content: 'Earlier answer' },
			{ role: 'user', content: 'Hash "one"' },
			{ role: 'assistant', content: hashAnswer('one') },
			{ role: 'user', content: 'Hash "two"' },
		]);
		for (const id of [second.id, 'resp_unknown']) {
			const error = await client.responses
				.create({ model: agentModel, previous_response_id: id, input: 'again' })
				.catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(OpenAI.BadRequestError);
			expect(error).toMatchObject({
				status: 400,
				code: 'previous_response_not_found',
				param: 'previous_response_id',
			});
		}
	});

	it('retrieve returns a stored response as created; delete forgets it; store: false is never kept', async () => {
		const created = await client.responses.create({ model: agentModel, input: 'Hash "kept"' });
		expect(await client.responses.retrieve(created.id)).toEqual(created);
		const streamed = await client.responses
			.stream({ model: agentModel, input: 'Hash "streamed"' })
			.finalResponse();
		expect(await client.responses.retrieve(streamed.id)).toMatchObject({
			id: streamed.id,
			status: 'completed',
			output_text: hashAnswer('streamed'),
		});
		const unstored = await client.responses.create({
			model: agentModel,
			input: 'Hash "gone"',
			store: false,
		});
		await client.responses.delete(created.id);
		for (const id of [created.id, unstored.id, 'resp_unknown']) {
			const error = await client.responses.retrieve(id).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(OpenAI.NotFoundError);
		}
		await expect(client.responses.delete(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
		await expect(
			client.responses.create({
				model: agentModel,
				previous_response_id: created.id,
				input: 'again',
			}),
		).rejects.toMatchObject({ status: 400, code: 'previous_response_not_found' });
		const anonymous = new OpenAI({ baseURL: serve.baseURL, apiKey: 'wrong', maxRetries: 0 });
		await expect(anonymous.responses.retrieve(streamed.id)).rejects.toBeInstanceOf(
			OpenAI.AuthenticationError,
		);
	});

	it('stream: the full event sequence, a preamble as commentary, the answer as final_answer', async () => {
		const stream = client.responses.stream({ model: agentModel, input: 'Hash "preamble"' });
		const events: ResponseStreamEvent[] = [];
		stream.on('event', (event) => events.push(event));
		const final = await stream.finalResponse();
		const types = events.map((event) => event.type);
		expect(types).toEqual([
			'response.created',
			'response.in_progress',
			// The model's text before its tool call …
			'response.output_item.added',
			'response.content_part.added',
			...types
				.slice(4, types.indexOf('response.output_text.done'))
				.map(() => 'response.output_text.delta'),
			'response.output_text.done',
			'response.content_part.done',
			'response.output_item.done',
			// … the tool call, run here …
			'response.output_item.added',
			'response.mcp_call_arguments.delta',
			'response.mcp_call_arguments.done',
			'response.mcp_call.in_progress',
			'response.mcp_call.completed',
			'response.output_item.done',
			// … the answer.
			'response.output_item.added',
			'response.content_part.added',
			...types
				.slice(
					types.lastIndexOf('response.content_part.added') + 1,
					types.lastIndexOf('response.output_text.done'),
				)
				.map(() => 'response.output_text.delta'),
			'response.output_text.done',
			'response.content_part.done',
			'response.output_item.done',
			'response.completed',
		]);
		expect(events.map((event) => event.sequence_number)).toEqual(
			events.map((_event, index) => index),
		);
		expect(
			new Set(events.flatMap((event) => ('response' in event ? [event.response.id] : []))).size,
		).toBe(1);
		expect(
			final.output.map((item) => [item.type, 'phase' in item ? item.phase : undefined]),
		).toEqual([
			['message', 'commentary'],
			['mcp_call', undefined],
			['message', 'final_answer'],
		]);
		expect(final.output_text).toBe(`Let me hash it.${hashAnswer('preamble')}`);
		const answerDeltas = events
			.slice(types.lastIndexOf('response.content_part.added'))
			.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []));
		expect(answerDeltas.join('')).toBe(hashAnswer('preamble'));
		expect(final.usage?.total_tokens).toBeGreaterThan(0);
	});

	it('the model key never reaches the client, streamed (split across deltas) or not', async () => {
		const expected = 'My key is [REDACTED], as asked.';
		const whole = await client.responses.create({ model: agentModel, input: 'say "leak"' });
		expect(whole.output_text).toBe(expected);
		const stream = await client.responses.create({
			model: agentModel,
			input: 'say "leak"',
			stream: true,
		});
		const raw: string[] = [];
		for await (const event of stream) raw.push(JSON.stringify(event));
		expect(raw.join('\n')).not.toContain(modelKey.slice(0, 8));
		const deltas = raw
			.map((line) => JSON.parse(line) as ResponseStreamEvent)
			.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []));
		expect(deltas.join('')).toBe(expected);
	});

	it("errors in OpenAI's shape: unknown model 404, client tools 400, a model failure 502 or a stream error event", async () => {
		await expect(client.responses.create({ model: 'gpt-4o', input: 'hi' })).rejects.toMatchObject({
			status: 404,
			code: 'model_not_found',
		});
		await expect(
			client.responses.create({
				model: agentModel,
				input: 'hi',
				tools: [{ type: 'function', name: 'x', parameters: {}, strict: false }],
			}),
		).rejects.toMatchObject({ status: 400, param: 'tools' });
		await expect(
			client.responses.create({
				model: agentModel,
				input: [{ role: 'assistant', content: 'no user' }],
			}),
		).rejects.toMatchObject({ status: 400, param: 'input' });
		await expect(
			client.responses.create({ model: agentModel, input: 'say "fail"' }),
		).rejects.toMatchObject({
			status: 502,
		});
		const streamed = client.responses.stream({ model: agentModel, input: 'say "fail"' });
		await expect(streamed.finalResponse()).rejects.toThrow(/model server failed/);
		const anonymous = new OpenAI({ baseURL: serve.baseURL, apiKey: 'wrong', maxRetries: 0 });
		await expect(
			anonymous.responses.create({ model: agentModel, input: 'hi' }),
		).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
	});
});
