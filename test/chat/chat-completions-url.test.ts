import { describe, expect, it } from 'vitest';
import { chatCompletionsUrl } from '../../src/chat/chat-completions-url';

describe('chatCompletionsUrl', () => {
	it.each([
		['https://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1/chat/completions'],
		['https://openrouter.ai/api/v1/', 'https://openrouter.ai/api/v1/chat/completions'],
		[
			'https://openrouter.ai/api/v1/chat/completions',
			'https://openrouter.ai/api/v1/chat/completions',
		],
		[
			'  https://openrouter.ai/api/v1/chat/completions/  ',
			'https://openrouter.ai/api/v1/chat/completions',
		],
		['https://openrouter.ai', 'https://openrouter.ai/api/v1/chat/completions'],
		['http://localhost:11434/v1', 'http://localhost:11434/v1/chat/completions'],
		['http://127.0.0.1:8000', 'http://127.0.0.1:8000/chat/completions'],
		[
			'https://example.com/openai/v1?api-version=2',
			'https://example.com/openai/v1/chat/completions?api-version=2',
		],
	])('%j → %j', (input, expected) => {
		expect(chatCompletionsUrl(input)).toBe(expected);
	});

	it.each([['openrouter.ai/api/v1'], ['ftp://example.com'], ['']])(
		'%j is rejected with a clear message',
		(input) => {
			expect(() => chatCompletionsUrl(input)).toThrow(
				/base URL .* (is not a URL|must start with http)/,
			);
		},
	);

	it('gives each base URL its own endpoint when calls alternate between them (the last one is remembered)', () => {
		for (let round = 0; round < 3; round++) {
			expect(chatCompletionsUrl('http://localhost:11434/v1')).toBe(
				'http://localhost:11434/v1/chat/completions',
			);
			expect(chatCompletionsUrl('https://openrouter.ai')).toBe(
				'https://openrouter.ai/api/v1/chat/completions',
			);
			expect(() => chatCompletionsUrl('ftp://example.com')).toThrow(/must start with http/);
		}
	});
});
