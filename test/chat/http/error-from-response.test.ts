import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../../src/chat/http/error-from-response';
import { Redactor } from '../../../src/chat/redactor';

const url = 'https://example.test/v1/chat/completions';

describe('errorFromResponse: status and body → one typed error', () => {
	it.each([
		[
			'OpenAI shape',
			{ error: { message: 'bad model', code: 'model_not_found' } },
			'bad model',
			'model_not_found',
		],
		[
			'OpenRouter shape, provider named',
			{ error: { message: 'overloaded', code: 503, metadata: { provider_name: 'Anthropic' } } },
			'overloaded (provider: Anthropic)',
			503,
		],
		['error as a string', { error: 'no such route' }, 'no such route', undefined],
		['a plain message', { message: 'slow down' }, 'slow down', undefined],
		['JSON without a message', { detail: 'x' }, undefined, undefined],
	])('%s', async (_case, body, providerMessage, providerCode) => {
		const error = await errorFromResponse(
			new Response(JSON.stringify(body), { status: 400 }),
			url,
			new Redactor(),
		);
		expect(error).toMatchObject({
			name: 'BadRequestError',
			code: 'CHAT_BAD_REQUEST',
			status: 400,
			providerCode,
			url,
			responseBody: JSON.stringify(body),
		});
		expect(error.message).toBe(
			`Chat API returned HTTP 400 (the request had invalid parameters)${providerMessage ? `: ${providerMessage}` : ''}`,
		);
	});

	it('takes Retry-After, cuts a long body and a long non-JSON message, and redacts the key', async () => {
		const apiKey = 'sk-test-key-123456';
		const text = `${apiKey} ${'x'.repeat(5000)}`;
		const error = await errorFromResponse(
			new Response(text, { status: 429, headers: { 'retry-after': '2' } }),
			url,
			new Redactor([apiKey]),
		);
		expect(error).toMatchObject({
			name: 'RateLimitError',
			code: 'CHAT_RATE_LIMITED',
			retryAfterMs: 2000,
		});
		expect(error.responseBody).toHaveLength(4097);
		expect(error.responseBody?.startsWith('[REDACTED] xxx')).toBe(true);
		expect(error.message).toBe(
			`Chat API returned HTTP 429 (rate limited): ${`[REDACTED] ${'x'.repeat(5000)}`.slice(0, 300)}`,
		);
	});

	it('an empty body: the status alone', async () => {
		const error = await errorFromResponse(new Response(null, { status: 504 }), url, new Redactor());
		expect(error).toMatchObject({
			name: 'ServerError',
			code: 'CHAT_SERVER_ERROR',
			responseBody: '',
		});
		expect(error.message).toBe('Chat API returned HTTP 504 (server error)');
	});
});
