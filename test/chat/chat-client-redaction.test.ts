/**
 * The chat client's side of the redaction boundary: the errors it makes from what a server
 * sent (an HTTP error body, a mid-stream error object, a broken data line) never carry its
 * API key or a header value, whatever the server echoes — for any caller of `streamChat`,
 * not only the agent.
 */
import { describe, expect, it } from 'vitest';
import { collectTurn } from '../../src/chat/collect-turn';
import { streamChat } from '../../src/chat/stream-chat';
import type { FakeReply } from '../support/fake-chat-server';
import { fakeChatServerPerTest } from '../support/fake-chat-server-hooks';

const apiKey = 'mk-live-53b1e9a7c4d2f806';
const headerValue = 'gw-token-0b7c6d5e4f3a';
const serve = fakeChatServerPerTest();

const echoed = `key ${apiKey}, Authorization: Bearer ${apiKey}, X-Gateway: ${headerValue}`;
const chunk = (fields: object) => ({
	id: 'g',
	model: 'fake/model',
	choices: [{ index: 0, delta: {}, finish_reason: null }],
	...fields,
});

describe('errors of the chat client carry no key and no header value', () => {
	it.each<[string, FakeReply, string, RegExp]>([
		[
			'HTTP error body (JSON)',
			{ status: 401, errorBody: { error: { code: 401, message: `Invalid: ${echoed}` } } },
			'AuthenticationError',
			/HTTP 401 .*Invalid: key \[REDACTED\], Authorization: Bearer \[REDACTED\], X-Gateway: \[REDACTED\]/,
		],
		[
			'HTTP error body (text)',
			{ status: 403, errorBody: `denied for ${echoed}` },
			'PermissionDeniedError',
			/HTTP 403 .*denied for key \[REDACTED\]/,
		],
		[
			'mid-stream error object',
			{
				chunks: [
					chunk({
						error: { code: 502, message: `upstream said ${echoed}` },
						choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
					}),
				],
			},
			'MidStreamError',
			/mid-stream \(502\): upstream said key \[REDACTED\]/,
		],
		[
			'mid-stream error without a message (the object is shown)',
			{
				chunks: [
					chunk({
						error: { code: 'bad', detail: echoed },
						choices: [{ index: 0, delta: {}, finish_reason: 'error' }],
					}),
				],
			},
			'MidStreamError',
			/"detail":"key \[REDACTED\], Authorization: Bearer \[REDACTED\]/,
		],
		[
			'broken data line',
			{ rawSse: `data: {"oops": ${echoed}}\n\n` },
			'InvalidChunkError',
			/not a JSON object \(Unexpected token 'k' \(not valid JSON\)\): \{"oops": key \[REDACTED\]/,
		],
		// Redacted before the excerpt is cut: a key across its end would otherwise leave its start.
		[
			'broken data line with the key across the end of the 200-character excerpt',
			{ rawSse: `data: {"pad": "${'p'.repeat(170)}", ${echoed}}\n\n` },
			'InvalidChunkError',
			/p", key \[REDACTED\]/,
		],
	])('%s', async (_label, reply, name, message) => {
		const fake = await serve(() => reply);
		const error = (await collectTurn(
			streamChat(
				{ model: 'fake/model', messages: [{ role: 'user', content: 'hi' }] },
				{
					baseUrl: fake.baseUrl,
					apiKey,
					headers: { 'X-Gateway': headerValue },
					retry: { maxRetries: 0 },
				},
			),
		).catch((caught: unknown) => caught)) as Error & Record<string, unknown>;
		expect(error.name).toBe(name);
		expect(error.message).toMatch(message);
		const everything = [error.message, error.stack, error.responseBody, error.data].join('\n');
		for (const secret of [apiKey, headerValue]) {
			expect(everything).not.toContain(secret);
			expect(everything).not.toContain(secret.slice(0, 8));
		}
	});
});
