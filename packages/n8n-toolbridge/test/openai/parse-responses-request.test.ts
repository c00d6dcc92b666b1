import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error';
import { parseResponsesRequest } from '../../src/openai/parse-responses-request';

const model = 'Agent';

describe('parseResponsesRequest', () => {
	it('a string input is the prompt; instructions, include and sampling options are ignored but echoed where OpenAI echoes them', () => {
		expect(
			parseResponsesRequest({
				model,
				input: 'hi',
				instructions: 'Be brief.',
				include: [],
				temperature: 2,
				metadata: { run: '7' },
			}),
		).toEqual({
			model,
			prompt: 'hi',
			history: [],
			previousResponseId: undefined,
			store: true,
			stream: false,
			instructions: 'Be brief.',
			metadata: { run: '7' },
		});
	});

	it("items: messages of every shape, a client's function calls, this server's mcp_call and reasoning items skipped", () => {
		const call = parseResponsesRequest({
			model,
			previous_response_id: 'resp_1',
			store: false,
			stream: true,
			input: [
				{ role: 'developer', content: 'dropped' },
				{
					type: 'message',
					role: 'user',
					content: [
						{ type: 'input_text', text: 'a' },
						{ type: 'input_text', text: 'b' },
					],
				},
				{ type: 'reasoning', id: 'rs_1', summary: [] },
				{
					type: 'mcp_call',
					id: 'mcp_1',
					name: 'Hash_text',
					arguments: '{}',
					server_label: 'toolbridge',
				},
				{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"x":1}' },
				{ type: 'function_call', call_id: 'c2', name: 'g', arguments: '{}' },
				{ type: 'function_call_output', call_id: 'c1', output: 'one' },
				{ type: 'function_call_output', call_id: 'c2', output: { two: 2 } },
				{
					type: 'message',
					role: 'assistant',
					content: [{ type: 'output_text', text: 'answer', annotations: [] }],
				},
				{ role: 'user', content: 'now' },
			],
		});
		expect(call).toMatchObject({
			prompt: 'now',
			previousResponseId: 'resp_1',
			store: false,
			stream: true,
		});
		expect(call.history).toEqual([
			{ role: 'user', content: 'ab' },
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
					{ id: 'c2', type: 'function', function: { name: 'g', arguments: '{}' } },
				],
			},
			{ role: 'tool', tool_call_id: 'c1', content: 'one' },
			{ role: 'tool', tool_call_id: 'c2', content: '{"two":2}' },
			{ role: 'assistant', content: 'answer' },
		]);
	});

	it('conversation: an id or { id }', () => {
		expect(parseResponsesRequest({ model, input: 'x', conversation: 'conv_1' }).conversation).toBe(
			'conv_1',
		);
		expect(
			parseResponsesRequest({ model, input: 'x', conversation: { id: 'conv_2' } }).conversation,
		).toBe('conv_2');
	});

	it.each([
		['no model', { input: 'x' }, 'model'],
		['client tools', { model, input: 'x', tools: [{ type: 'function', name: 'f' }] }, 'tools'],
		['background', { model, input: 'x', background: true }, 'background'],
		['an empty conversation id', { model, input: 'x', conversation: { id: '' } }, 'conversation'],
		[
			'a conversation beside previous_response_id',
			{ model, input: 'x', conversation: 'conv_1', previous_response_id: 'resp_1' },
			'conversation',
		],
		['an empty input', { model, input: [] }, 'input'],
		[
			'the last item not the user',
			{ model, input: [{ role: 'assistant', content: 'x' }] },
			'input',
		],
		[
			'an image',
			{
				model,
				input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x' }] }],
			},
			'input[0].content',
		],
		['an item reference', { model, input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0]'],
		['a stream that is not a boolean', { model, input: 'x', stream: 'yes' }, 'stream'],
		[
			'an empty previous_response_id',
			{ model, input: 'x', previous_response_id: '' },
			'previous_response_id',
		],
	])('400 for %s (param %s)', (_label, body, param) => {
		let error: unknown;
		try {
			parseResponsesRequest(body);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(HttpError);
		expect(error).toMatchObject({ status: 400, param });
	});
});
