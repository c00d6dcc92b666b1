import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error';
import { parseChatRequest } from '../../src/openai/parse-chat-request';

describe('parseChatRequest', () => {
	it('the last user message is the prompt; earlier turns the history, without system messages', () => {
		const call = parseChatRequest({
			model: 'Agent',
			stream: true,
			stream_options: { include_usage: true },
			messages: [
				{ role: 'system', content: 'ignored' },
				{
					role: 'user',
					content: [
						{ type: 'text', text: 'Hi ' },
						{ type: 'text', text: 'there' },
					],
				},
				{
					role: 'assistant',
					content: null,
					tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
				},
				{ role: 'tool', tool_call_id: 'c1', content: 'done' },
				{ role: 'developer', content: 'also ignored' },
				{ role: 'user', content: 'Now?' },
			],
		});
		expect(call).toEqual({
			model: 'Agent',
			prompt: 'Now?',
			stream: true,
			includeUsage: true,
			history: [
				{ role: 'user', content: 'Hi there' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
				},
				{ role: 'tool', tool_call_id: 'c1', content: 'done' },
			],
		});
	});

	it.each([
		['no model', { messages: [{ role: 'user', content: 'x' }] }, 'model'],
		[
			'client-side tools',
			{
				model: 'A',
				messages: [{ role: 'user', content: 'x' }],
				tools: [{ type: 'function', function: { name: 'f' } }],
			},
			'tools',
		],
		['n > 1', { model: 'A', n: 2, messages: [{ role: 'user', content: 'x' }] }, 'n'],
		['no messages', { model: 'A', messages: [] }, 'messages'],
		[
			"last message not the user's",
			{
				model: 'A',
				messages: [
					{ role: 'user', content: 'x' },
					{ role: 'assistant', content: 'y' },
				],
			},
			'messages[1].role',
		],
		[
			'an image part',
			{
				model: 'A',
				messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
			},
			'messages[0].content',
		],
		[
			'an unknown role',
			{ model: 'A', messages: [{ role: 'robot', content: 'x' }] },
			'messages[0].role',
		],
		[
			'a tool message without its call id',
			{
				model: 'A',
				messages: [
					{ role: 'tool', content: 'x' },
					{ role: 'user', content: 'y' },
				],
			},
			'messages[0].tool_call_id',
		],
		['not an object', [1, 2], null],
	])('%s: 400 naming the parameter', (_case, body, param) => {
		let refused: unknown;
		try {
			parseChatRequest(body);
		} catch (error) {
			refused = error;
		}
		expect(refused).toBeInstanceOf(HttpError);
		expect(refused).toMatchObject({ status: 400, param });
	});
});
