import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatRequestBody, RequestBodyWriter } from '../../src/chat/request-body';
import type { ChatMessage, ChatRequest, WireTool } from '../../src/chat/types';

const tools: WireTool[] = [
	{
		type: 'function',
		function: {
			name: 'weather',
			description: 'Weather for a city',
			parameters: { type: 'object', properties: { city: { type: 'string' } } },
		},
	},
];

describe('RequestBodyWriter', () => {
	it('writes what JSON.stringify of the whole streaming body gives, as the history grows', () => {
		const writer = new RequestBodyWriter();
		const messages: ChatMessage[] = [
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: 'Weather in Rome and Paris?' },
		];
		for (let turn = 0; turn < 5; turn++) {
			const request: ChatRequest = {
				model: 'openai/gpt-4o',
				messages: [...messages],
				tools,
				tool_choice: 'auto',
				temperature: undefined,
				max_tokens: 100,
			};
			const body = writer.write(request);
			expect(body).toBe(
				JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } }),
			);
			expect(JSON.parse(body).messages).toHaveLength(messages.length);
			messages.push(
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: `call_${turn}`,
							type: 'function',
							function: { name: 'weather', arguments: `{"city":"C${turn}"}` },
						},
					],
				},
				{ role: 'tool', tool_call_id: `call_${turn}`, content: `${20 + turn} °C` },
			);
		}
	});

	it('sees messages added to, or replaced in, the same array between calls', () => {
		const writer = new RequestBodyWriter();
		const messages: ChatMessage[] = [
			{ role: 'system', content: 'S' },
			{ role: 'user', content: 'U' },
		];
		const request: ChatRequest = { model: 'm', messages, tools };
		expect(writer.write(request)).toBe(chatRequestBody(request));
		messages.push({ role: 'assistant', content: 'A' });
		expect(writer.write(request)).toBe(chatRequestBody(request));
		messages[0] = {
			role: 'system',
			content: [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }],
		} as ChatMessage;
		expect(writer.write(request)).toBe(chatRequestBody(request));
		expect(JSON.parse(writer.write({ ...request, tools: undefined })).tools).toBeUndefined();
	});

	it('falls back to plain serialization when a request carries its stand-in texts itself', () => {
		const writer = new RequestBodyWriter();
		const request: ChatRequest = {
			model: 'm',
			messages: [
				{
					role: 'user',
					content: '\u0000toolbridge:messages\u0000 and \u0000toolbridge:tools\u0000',
				},
			],
			tools,
		};
		expect(writer.write(request)).toBe(chatRequestBody(request));
		const inModel: ChatRequest = {
			model: '\u0000toolbridge:tools\u0000',
			messages: [{ role: 'user', content: 'hi' }],
			tools,
		};
		expect(writer.write(inModel)).toBe(chatRequestBody(inModel));
	});

	it('matches chatRequestBody for arbitrary requests, reused message objects included', () => {
		const writer = new RequestBodyWriter();
		const seen: ChatMessage[] = [];
		const text = fc.oneof(
			fc.string(),
			fc.constantFrom('\u0000toolbridge:messages\u0000', '\u0000toolbridge:tools\u0000', '"', '\\'),
		);
		const message = fc.oneof(
			fc.record({ role: fc.constant('user' as const), content: text }),
			fc.record({ role: fc.constant('tool' as const), tool_call_id: fc.string(), content: text }),
			fc.record({
				role: fc.constant('assistant' as const),
				content: fc.option(text, { nil: null }),
			}),
		);
		fc.assert(
			fc.property(
				fc.array(message, { maxLength: 6 }),
				fc.boolean(),
				fc.boolean(),
				fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
				(fresh, reuse, withTools, extra) => {
					const messages = [...(reuse ? seen : []), ...(fresh as ChatMessage[])];
					seen.push(...(fresh as ChatMessage[]));
					const request = {
						...extra,
						model: 'm',
						messages,
						...(withTools ? { tools } : {}),
					} as ChatRequest;
					expect(writer.write(request)).toBe(chatRequestBody(request));
				},
			),
			{ numRuns: 300 },
		);
	});
});
