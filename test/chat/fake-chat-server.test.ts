import { describe, expect, it } from 'vitest';
import { chatCompletion } from '../../src/chat/chat-completion';
import {
	reasoningReply,
	startFakeChatServer,
	textReply,
	toolCallReply,
} from '../support/fake-chat-server';

describe('fake chat server', () => {
	it('listens on 127.0.0.1 only, records requests, and speaks real SSE', async () => {
		const server = await startFakeChatServer({
			respond: () => textReply('Hello', { deltaSize: 2 }),
		});
		try {
			expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
			const response = await fetch(`${server.baseUrl}/chat/completions`, {
				method: 'POST',
				body: JSON.stringify({ model: 'm' }),
				headers: { 'X-Test': 'yes' },
			});
			expect(response.headers.get('content-type')).toBe('text/event-stream');
			const body = await response.text();
			const lines = body.split('\n\n').filter(Boolean);
			expect(lines.at(-1)).toBe('data: [DONE]');
			const chunks = lines.slice(0, -1).map((line) => JSON.parse(line.replace(/^data: /, '')));
			expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
			expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? null)).toEqual([
				'',
				'He',
				'll',
				'o',
				'',
				null,
			]);
			expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
			expect(chunks.at(-1)).toMatchObject({
				choices: [],
				usage: { prompt_tokens: 12, cost: 0.000042 },
			});
			expect(server.requests).toMatchObject([
				{
					index: 0,
					body: { model: 'm' },
					method: 'POST',
					path: '/v1/chat/completions',
					headers: { 'x-test': 'yes' },
				},
			]);
		} finally {
			await server.close();
		}
	});

	it('builders round-trip through the client', async () => {
		const replies = [
			toolCallReply(
				[
					{ name: 'add', arguments: { a: 1, b: 2 } },
					{ id: 'own', name: 'now', arguments: '' },
				],
				{ text: 'Let me.' },
			),
			reasoningReply('Adding numbers.', '3', { model: 'anthropic/claude-sonnet-4' }),
		];
		const server = await startFakeChatServer({ respond: ({ index }) => replies[index] });
		try {
			const first = await chatCompletion({ model: 'm', messages: [] }, { baseUrl: server.baseUrl });
			expect(first).toMatchObject({
				text: 'Let me.',
				finishReason: 'tool-calls',
				toolCalls: [
					{ toolCallId: 'call_fake_1', name: 'add', arguments: { a: 1, b: 2 } },
					{ toolCallId: 'own', name: 'now', arguments: {} },
				],
			});
			const second = await chatCompletion(
				{ model: 'm', messages: [] },
				{ baseUrl: server.baseUrl },
			);
			expect(second).toMatchObject({
				text: '3',
				reasoning: 'Adding numbers.',
				model: 'anthropic/claude-sonnet-4',
			});
			expect(second.reasoningDetails).toEqual([
				{
					type: 'reasoning.text',
					text: 'Adding numbers.',
					format: 'anthropic-claude-v1',
					index: 0,
					signature: 'sig-fake',
				},
			]);
		} finally {
			await server.close();
		}
	});

	it('close() ends even with a stalled stream open', async () => {
		const server = await startFakeChatServer({
			respond: () => textReply('x', { reply: { stallAfterChunks: 1 } }),
		});
		const response = await fetch(`${server.baseUrl}/chat/completions`, {
			method: 'POST',
			body: '{}',
		});
		const reader = response.body!.getReader();
		await reader.read();
		await server.close();
		await expect(reader.read()).rejects.toThrow();
	});

	it('a throwing respond gives a 500 with the message', async () => {
		const server = await startFakeChatServer({
			respond: () => {
				throw new Error('no reply scripted');
			},
		});
		try {
			const response = await fetch(`${server.baseUrl}/chat/completions`, {
				method: 'POST',
				body: '{}',
			});
			expect(response.status).toBe(500);
			expect(await response.json()).toEqual({
				error: { code: 500, message: 'fake chat server: no reply scripted' },
			});
		} finally {
			await server.close();
		}
	});
});
