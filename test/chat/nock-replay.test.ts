import nock from 'nock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadChatFixtureSse } from '../../fixtures/chat/load-chat-fixture';
import { chatCompletion } from '../../src/chat/chat-completion';

// nock 14 intercepts Node's native fetch: the same client code, no socket at all.
const baseUrl = 'https://openrouter.ai/api/v1';
afterEach(() => nock.cleanAll());
afterAll(() => nock.restore());

describe('replay through nock (native fetch intercepted)', () => {
	it('streams a recorded fixture and sends the expected body', async () => {
		let sentBody: unknown;
		const scope = nock('https://openrouter.ai')
			.post('/api/v1/chat/completions', (body) => {
				sentBody = body;
				return true;
			})
			.matchHeader('authorization', 'Bearer sk-or-v1-nock')
			.reply(200, loadChatFixtureSse('parallel-tool-calls', { lineEnding: '\r\n' }), {
				'Content-Type': 'text/event-stream',
			});
		const turn = await chatCompletion(
			{
				model: 'openai/gpt-4o-mini',
				messages: [{ role: 'user', content: 'Paris and Rome?' }],
				parallel_tool_calls: true,
			},
			{ baseUrl, apiKey: 'sk-or-v1-nock' },
		);
		expect(turn.toolCalls.map((call) => call.arguments)).toEqual([
			{ city: 'Paris' },
			{ city: 'Rome' },
		]);
		expect(sentBody).toMatchInlineSnapshot(`
			{
			  "messages": [
			    {
			      "content": "Paris and Rome?",
			      "role": "user",
			    },
			  ],
			  "model": "openai/gpt-4o-mini",
			  "parallel_tool_calls": true,
			  "stream": true,
			  "stream_options": {
			    "include_usage": true,
			  },
			}
		`);
		scope.done();
	});

	it('429 with Retry-After, then the stream', async () => {
		const scope = nock('https://openrouter.ai')
			.post('/api/v1/chat/completions')
			.reply(
				429,
				{ error: { code: 429, message: 'Rate limit exceeded: free-models-per-min' } },
				{ 'Retry-After': '0' },
			)
			.post('/api/v1/chat/completions')
			.reply(200, loadChatFixtureSse('text'), { 'Content-Type': 'text/event-stream' });
		const delays: number[] = [];
		const turn = await chatCompletion(
			{ model: 'm', messages: [] },
			{ baseUrl, onRetry: (event) => delays.push(event.delayMs) },
		);
		expect(turn.text).toBe('The capital of France is Paris — ✓.');
		expect(delays).toEqual([0]);
		scope.done();
	});
});
