import { describe, expect, it } from 'vitest';
import { chatCompletion } from '../../src/chat/chat-completion';
import { collectTurn, type StreamPartListener } from '../../src/chat/collect-turn';
import {
	streamChat,
	streamChatBatches,
	type ChatClientOptions,
	type RetryEvent,
} from '../../src/chat/stream-chat';
import type { ChatRequest, StreamPart } from '../../src/chat/types';
import {
	errorReply,
	textReply,
	toolCallReply,
	type FakeChatServer,
	type FakeReply,
} from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';

const apiKey = 'sk-or-v1-test0000000000000000000000000000';
const request: ChatRequest = {
	model: 'openai/gpt-4o-mini',
	messages: [{ role: 'user', content: 'Hi' }],
};

const serve = fakeChatServerPerTest();

function options(
	fake: FakeChatServer,
	extra: Partial<ChatClientOptions & { onPart: StreamPartListener }> = {},
): ChatClientOptions & { onPart?: StreamPartListener } {
	return {
		baseUrl: fake.baseUrl,
		apiKey,
		retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
		...extra,
	};
}

describe('streamChat: the request on the wire', () => {
	it('sends the body as given plus stream options; unset fields are absent', async () => {
		const fake = await serve(() => textReply('ok'));
		await chatCompletion(
			{
				model: 'anthropic/claude-sonnet-4',
				messages: [
					{ role: 'system', content: 'Be brief.' },
					{ role: 'user', content: 'Weather?' },
					{
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: 'call_1',
								type: 'function',
								function: { name: 'weather', arguments: '{"city":"Rome"}' },
							},
						],
					},
					{ role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
				],
				tools: [
					{
						type: 'function',
						function: {
							name: 'weather',
							description: 'Weather for a city',
							parameters: {
								type: 'object',
								properties: { city: { type: 'string' } },
								required: ['city'],
							},
						},
					},
				],
				tool_choice: 'auto',
				temperature: undefined,
				max_tokens: undefined,
				reasoning: { effort: 'low' },
			},
			options(fake),
		);
		expect(fake.requests[0].body).toMatchInlineSnapshot(`
			{
			  "messages": [
			    {
			      "content": "Be brief.",
			      "role": "system",
			    },
			    {
			      "content": "Weather?",
			      "role": "user",
			    },
			    {
			      "content": null,
			      "role": "assistant",
			      "tool_calls": [
			        {
			          "function": {
			            "arguments": "{"city":"Rome"}",
			            "name": "weather",
			          },
			          "id": "call_1",
			          "type": "function",
			        },
			      ],
			    },
			    {
			      "content": "{"temp":21}",
			      "role": "tool",
			      "tool_call_id": "call_1",
			    },
			  ],
			  "model": "anthropic/claude-sonnet-4",
			  "reasoning": {
			    "effort": "low",
			  },
			  "stream": true,
			  "stream_options": {
			    "include_usage": true,
			  },
			  "tool_choice": "auto",
			  "tools": [
			    {
			      "function": {
			        "description": "Weather for a city",
			        "name": "weather",
			        "parameters": {
			          "properties": {
			            "city": {
			              "type": "string",
			            },
			          },
			          "required": [
			            "city",
			          ],
			          "type": "object",
			        },
			      },
			      "type": "function",
			    },
			  ],
			}
		`);
		expect(fake.requests[0].path).toBe('/v1/chat/completions');
		expect(fake.requests[0].method).toBe('POST');
	});

	it('sends the key as a bearer token and attribution headers when set', async () => {
		const fake = await serve(() => textReply('ok'));
		await chatCompletion(
			request,
			options(fake, {
				appName: 'Toolbridge Test',
				appUrl: 'https://example.com/app',
				headers: { 'X-Extra': '1' },
			}),
		);
		const { authorization, ...headers } = fake.requests[0].headers;
		expect(authorization).toBe(`Bearer ${apiKey}`);
		expect({
			accept: headers.accept,
			'content-type': headers['content-type'],
			'http-referer': headers['http-referer'],
			'x-openrouter-title': headers['x-openrouter-title'],
			'x-title': headers['x-title'],
			'x-extra': headers['x-extra'],
		}).toMatchInlineSnapshot(`
			{
			  "accept": "text/event-stream",
			  "content-type": "application/json",
			  "http-referer": "https://example.com/app",
			  "x-extra": "1",
			  "x-openrouter-title": "Toolbridge Test",
			  "x-title": "Toolbridge Test",
			}
		`);
	});

	it('sends no attribution or authorization headers when not configured', async () => {
		const fake = await serve(() => textReply('ok'));
		await chatCompletion(request, { baseUrl: fake.baseUrl });
		expect(
			Object.keys(fake.requests[0].headers).filter((name) =>
				/authorization|referer|title/.test(name),
			),
		).toEqual([]);
	});

	it.each([['/'], ['/chat/completions'], ['/chat/completions/'], ['//']])(
		'normalises a base URL ending in %s',
		async (suffix) => {
			const fake = await serve(() => textReply('ok'));
			await chatCompletion(request, { baseUrl: fake.baseUrl + suffix });
			expect(fake.requests[0].path).toBe('/v1/chat/completions');
		},
	);
});

describe('streamChat: HTTP errors are typed, in one place', () => {
	it.each([
		[400, 'BadRequestError', 'CHAT_BAD_REQUEST'],
		[401, 'AuthenticationError', 'CHAT_AUTHENTICATION'],
		[402, 'InsufficientCreditsError', 'CHAT_INSUFFICIENT_CREDITS'],
		[403, 'PermissionDeniedError', 'CHAT_PERMISSION_DENIED'],
		[408, 'ProviderTimeoutError', 'CHAT_PROVIDER_TIMEOUT'],
		[500, 'ServerError', 'CHAT_SERVER_ERROR'],
		[418, 'ApiCallError', 'CHAT_API_ERROR'],
	])('%i → %s, not retried', async (status, name, code) => {
		const fake = await serve(() => errorReply(status, `upstream says ${status}`));
		await expect(chatCompletion(request, options(fake))).rejects.toMatchObject({
			name,
			code,
			status,
			providerCode: status,
			message: expect.stringContaining(`HTTP ${status}`),
		});
		expect(fake.requests).toHaveLength(1);
	});

	it('401: the message says what happened and never contains the API key, even when the server echoes it', async () => {
		const fake = await serve(() => ({
			status: 401,
			errorBody: { error: { code: 401, message: `No auth credentials found for key ${apiKey}` } },
		}));
		const error = (await chatCompletion(request, options(fake)).catch(
			(caught: unknown) => caught,
		)) as Error & { responseBody: string };
		expect(error.message).toBe(
			'Chat API returned HTTP 401 (the API key is missing, invalid or expired): No auth credentials found for key [REDACTED]',
		);
		expect(error.responseBody).not.toContain(apiKey);
		expect(JSON.stringify(error)).not.toContain(apiKey);
	});

	it('402 credits: OpenRouter message kept', async () => {
		const fake = await serve(() =>
			errorReply(402, 'This request requires more credits, or fewer max_tokens.'),
		);
		await expect(chatCompletion(request, options(fake))).rejects.toThrow(
			'Chat API returned HTTP 402 (the account has too few credits): This request requires more credits, or fewer max_tokens.',
		);
	});

	it('a non-JSON error body still gives a useful message', async () => {
		const fake = await serve(() => ({ status: 502, errorBody: '<html>Bad gateway</html>' }));
		await expect(
			chatCompletion(request, options(fake, { retry: { maxRetries: 0 } })),
		).rejects.toThrow(
			'Chat API returned HTTP 502 (the model provider is down or returned an invalid response): <html>Bad gateway</html>',
		);
	});
});

describe('streamChat: retries before the first part', () => {
	it('429 with Retry-After (seconds) waits as told, then succeeds', async () => {
		const fake = await serve(({ index }) =>
			index === 0
				? errorReply(429, 'Rate limit exceeded', { 'Retry-After': '1' })
				: textReply('after the wait'),
		);
		const retries: RetryEvent[] = [];
		const turn = await chatCompletion(
			request,
			options(fake, { onRetry: (event) => retries.push(event) }),
		);
		expect(turn.text).toBe('after the wait');
		expect(fake.requests).toHaveLength(2);
		expect(
			retries.map(({ attempt, delayMs, error }) => ({ attempt, delayMs, name: error.name })),
		).toEqual([{ attempt: 1, delayMs: 1000, name: 'RateLimitError' }]);
		expect(fake.requests[1].body).toEqual(fake.requests[0].body);
	});

	it('Retry-After as an HTTP date is honoured and capped by maxRetryAfterMs', async () => {
		const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
		const fake = await serve(({ index }) =>
			index === 0
				? errorReply(503, 'No instances available', { 'Retry-After': inAnHour })
				: textReply('ok'),
		);
		const retries: RetryEvent[] = [];
		await chatCompletion(
			request,
			options(fake, {
				retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 20 },
				onRetry: (event) => retries.push(event),
			}),
		);
		expect(retries.map((event) => event.delayMs)).toEqual([20]);
	});

	it('503 every time: gives up after maxRetries with the typed error', async () => {
		const fake = await serve(() => errorReply(503, 'No endpoints found'));
		await expect(chatCompletion(request, options(fake))).rejects.toMatchObject({
			name: 'ProviderUnavailableError',
			status: 503,
		});
		expect(fake.requests).toHaveLength(3);
	});

	it('maxRetries 0 turns retrying off', async () => {
		const fake = await serve(() => errorReply(429, 'slow down'));
		await expect(
			chatCompletion(request, options(fake, { retry: { maxRetries: 0 } })),
		).rejects.toMatchObject({ name: 'RateLimitError' });
		expect(fake.requests).toHaveLength(1);
	});

	it('a connection reset before any part is retried', async () => {
		const fake = await serve(({ index }) =>
			index === 0 ? { resetBeforeResponse: true } : textReply('second try'),
		);
		const turn = await chatCompletion(request, options(fake));
		expect(turn.text).toBe('second try');
		expect(fake.requests).toHaveLength(2);
	});

	it('a reset after only comment lines (no part yet) is retried', async () => {
		const fake = await serve(({ index }) =>
			index === 0 ? { processingComments: 2, chunks: [], resetAfterChunks: 0 } : textReply('fine'),
		);
		expect((await chatCompletion(request, options(fake))).text).toBe('fine');
		expect(fake.requests).toHaveLength(2);
	});

	it('a reset after a part was yielded is NOT retried', async () => {
		const fake = await serve(() =>
			textReply('Hello there, partial', { deltaSize: 5, reply: { resetAfterChunks: 3 } }),
		);
		const parts: StreamPart[] = [];
		await expect(
			chatCompletion(request, options(fake, { onPart: (part) => void parts.push(part) })),
		).rejects.toMatchObject({ name: 'ChatConnectionError', code: 'CHAT_CONNECTION' });
		expect(parts.map((part) => part.type)).toEqual(['text-delta', 'text-delta']);
		expect(fake.requests).toHaveLength(1);
	});

	it('a mid-stream error chunk is not retried', async () => {
		const fake = await serve(() => ({
			chunks: [
				{ choices: [{ index: 0, delta: { content: 'a' } }] },
				{
					error: { code: 502, message: 'gone' },
					choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
				},
			],
		}));
		await expect(chatCompletion(request, options(fake))).rejects.toMatchObject({
			name: 'MidStreamError',
		});
		expect(fake.requests).toHaveLength(1);
	});
});

describe('streamChat: abort and timeout', () => {
	it('an aborted signal stops the stream with ChatAbortedError and closes the connection', async () => {
		const fake = await serve(() =>
			textReply('one two three four', { deltaSize: 4, reply: { stallAfterChunks: 2 } }),
		);
		const controller = new AbortController();
		const outcome = chatCompletion(
			request,
			options(fake, { signal: controller.signal, onPart: () => controller.abort() }),
		);
		await expect(outcome).rejects.toMatchObject({ name: 'ChatAbortedError', code: 'CHAT_ABORTED' });
		await fake.requests[0].closed;
	});

	it('a signal aborted before the call sends nothing', async () => {
		const fake = await serve(() => textReply('never'));
		await expect(
			chatCompletion(request, options(fake, { signal: AbortSignal.abort() })),
		).rejects.toMatchObject({ name: 'ChatAbortedError' });
		expect(fake.requests).toHaveLength(0);
	});

	it('aborting during the wait before a retry stops the retries', async () => {
		const fake = await serve(() => errorReply(429, 'slow', { 'Retry-After': '30' }));
		const controller = new AbortController();
		const outcome = chatCompletion(
			request,
			options(fake, {
				signal: controller.signal,
				onRetry: () => setTimeout(() => controller.abort(), 5),
			}),
		);
		await expect(outcome).rejects.toMatchObject({ name: 'ChatAbortedError' });
		expect(fake.requests).toHaveLength(1);
	});

	it('breaking out of the iteration aborts the request', async () => {
		const fake = await serve(() =>
			textReply('a b c d e f', { deltaSize: 2, reply: { stallAfterChunks: 3 } }),
		);
		for await (const part of streamChat(request, options(fake))) {
			expect(part.type).toBe('text-delta');
			break;
		}
		await fake.requests[0].closed;
	});

	it('collectTurn stops, and the request is aborted, when onPart throws', async () => {
		const fake = await serve(() =>
			textReply('a b c d e f', { deltaSize: 2, reply: { stallAfterChunks: 3 } }),
		);
		const outcome = collectTurn(streamChat(request, options(fake)), () => {
			throw new Error('consumer failed');
		});
		await expect(outcome).rejects.toThrow('consumer failed');
		await fake.requests[0].closed;
	});

	it('no data mid-stream for timeoutMs → ChatTimeoutError (stream)', async () => {
		const fake = await serve(() => textReply('slow answer', { reply: { stallAfterChunks: 1 } }));
		await expect(chatCompletion(request, options(fake, { timeoutMs: 100 }))).rejects.toMatchObject({
			name: 'ChatTimeoutError',
			code: 'CHAT_TIMEOUT',
			message: 'The chat API stream sent no data for 100 ms (option timeoutMs).',
		});
		await fake.requests[0].closed;
	});

	it('no response headers within timeoutMs → ChatTimeoutError (response), not retried', async () => {
		const fake = await serve(() => new Promise<FakeReply>(() => undefined));
		await expect(chatCompletion(request, options(fake, { timeoutMs: 100 }))).rejects.toThrow(
			'The chat API sent no response within 100 ms (option timeoutMs).',
		);
		expect(fake.requests).toHaveLength(1);
	});

	it('time spent by the consumer on a part does not count as stream inactivity', async () => {
		const fake = await serve(() => toolCallReply([{ name: 'noop', arguments: {} }]));
		const turn = await chatCompletion(
			request,
			options(fake, {
				timeoutMs: 50,
				onPart: () => new Promise((resolve) => setTimeout(resolve, 80)),
			}),
		);
		expect(turn.toolCalls.map((call) => call.name)).toEqual(['noop']);
	});
});

describe('streamChat: one request after another', () => {
	it('a timeout, then an abort, then normal requests: each attempt stands alone', async () => {
		let index = 0;
		const fake = await serve(() =>
			index++ === 0
				? textReply('stalls', { reply: { stallAfterChunks: 1 } })
				: textReply(`answer ${index}`),
		);
		await expect(chatCompletion(request, options(fake, { timeoutMs: 80 }))).rejects.toMatchObject({
			name: 'ChatTimeoutError',
		});
		const controller = new AbortController();
		controller.abort();
		await expect(
			chatCompletion(request, options(fake, { signal: controller.signal })),
		).rejects.toMatchObject({ name: 'ChatAbortedError' });
		expect((await chatCompletion(request, options(fake))).text).toBe('answer 2');
		expect((await chatCompletion(request, options(fake, { timeoutMs: 80 }))).text).toBe('answer 3');
	});

	it('a body that goes on after [DONE]: the turn is there at [DONE], the next request works', async () => {
		let index = 0;
		const fake = await serve(() =>
			textReply(`answer ${index++}`, {
				reply: { afterDone: ': trailing comment\n\ndata: {"ignored":true}\n\n' },
			}),
		);
		expect((await chatCompletion(request, options(fake))).text).toBe('answer 0');
		expect((await chatCompletion(request, options(fake))).text).toBe('answer 1');
	});

	it('a body left open after [DONE] gives its turn at once, and is cancelled after the grace period', async () => {
		const fake = await serve(() => textReply('done early', { reply: { stallAfterDone: true } }));
		const started = Date.now();
		expect((await chatCompletion(request, options(fake, { timeoutMs: 60_000 }))).text).toBe(
			'done early',
		);
		expect(Date.now() - started).toBeLessThan(2_000);
		// The connection closes when the client gives the body up (5 s after [DONE]).
		await fake.requests[0].closed;
		expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
	}, 15_000);

	it('a body whose end comes after [DONE] is read to that end in the background, not kept open until the grace period', async () => {
		// Nobody pulls a body left alone: unread, it never learns its end came and stays open
		// (fetch's buffers with it) until the grace period cancels it.
		const encoder = new TextEncoder();
		let step = 0;
		let readToEnd!: (outcome: string) => void;
		const outcome = new Promise<string>((resolve) => (readToEnd = resolve));
		const body = new ReadableStream<Uint8Array>(
			{
				pull(controller) {
					if (step++ === 0)
						controller.enqueue(
							encoder.encode(
								'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
							),
						);
					else {
						controller.close();
						readToEnd('read to its end');
					}
				},
				cancel: () => readToEnd('cancelled'),
			},
			{ highWaterMark: 0 },
		);
		const fetchWithBody: typeof fetch = async () =>
			new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
		expect(
			(await chatCompletion(request, { baseUrl: 'http://127.0.0.1:9/v1', fetch: fetchWithBody }))
				.text,
		).toBe('hi');
		expect(await outcome).toBe('read to its end');
	});

	it('streamChat yields the parts of streamChatBatches, one by one, in order', async () => {
		const fake = await serve(() =>
			toolCallReply([{ name: 'weather', arguments: { city: 'Rome' } }], { text: 'Let me check.' }),
		);
		const parts: StreamPart[] = [];
		for await (const part of streamChat(request, options(fake))) parts.push(part);
		const batches: StreamPart[][] = [];
		for await (const batch of streamChatBatches(request, options(fake))) batches.push(batch);
		expect(batches.every((batch) => batch.length > 0)).toBe(true);
		expect(batches.flat()).toEqual(parts);
		expect(parts.map((part) => part.type)).toContain('tool-call');
	});
});

describe('streamChat: connection failures', () => {
	it('a refused connection is a ChatConnectionError and is not retried', async () => {
		const fake = await serve(() => textReply('x'));
		const { baseUrl } = fake;
		await fake.close();
		const retries: RetryEvent[] = [];
		await expect(
			chatCompletion(request, {
				baseUrl,
				retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
				onRetry: (event) => retries.push(event),
			}),
		).rejects.toMatchObject({
			name: 'ChatConnectionError',
			systemCode: 'ECONNREFUSED',
		});
		expect(retries).toEqual([]);
	});

	it('an injected fetch is used', async () => {
		const calls: string[] = [];
		const body =
			'data: {"choices":[{"index":0,"delta":{"content":"injected"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
		const fetchStub: typeof fetch = async (input) => {
			calls.push(String(input));
			return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
		};
		const turn = await chatCompletion(request, {
			baseUrl: 'https://openrouter.ai/api/v1/',
			fetch: fetchStub,
		});
		expect(turn.text).toBe('injected');
		expect(calls).toEqual(['https://openrouter.ai/api/v1/chat/completions']);
	});
});

describe('streamChat: servers that do not stream', () => {
	it('a JSON chat.completion answer (stream ignored) is assembled the same way', async () => {
		const completion = {
			id: 'chatcmpl-1',
			object: 'chat.completion',
			model: 'llama3.1:8b',
			choices: [
				{
					index: 0,
					message: {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: 'call_1',
								type: 'function',
								function: { name: 'add', arguments: '{"a":1,"b":2}' },
							},
						],
					},
					finish_reason: 'tool_calls',
				},
			],
			usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
		};
		const fake = await serve(() => ({
			status: 200,
			headers: { 'Content-Type': 'application/json' },
			rawSse: JSON.stringify(completion),
		}));
		const turn = await chatCompletion(request, options(fake));
		expect(turn).toEqual({
			text: '',
			reasoning: '',
			reasoningDetails: [],
			toolCalls: [
				{
					toolCallId: 'call_1',
					name: 'add',
					argumentsText: '{"a":1,"b":2}',
					arguments: { a: 1, b: 2 },
				},
			],
			finishReason: 'tool-calls',
			rawFinishReason: 'tool_calls',
			usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
			model: 'llama3.1:8b',
		});
	});

	it('a 200 that is not SSE (e.g. an HTML page) says to check the base URL', async () => {
		const fake = await serve(() => ({
			status: 200,
			headers: { 'Content-Type': 'text/html' },
			rawSse: '<html><body>Welcome</body></html>',
		}));
		await expect(chatCompletion(request, options(fake))).rejects.toThrow(
			'The model stream ended without a finish_reason (no data chunks at all; check that the base URL points at an OpenAI-compatible API); the answer may be cut off.',
		);
	});
});
