import { describe, expect, it } from 'vitest';
import { chatFixtureNames, loadChatFixtureSse } from '../../fixtures/chat/load-chat-fixture';
import type { StreamPart } from '../../src/chat/types';
import { bytesCutAt, outcomeOf, partsOf } from './chat-stream-test-support';

const encoder = new TextEncoder();

describe('parseChatStream over bytes cut anywhere', () => {
	it.each(chatFixtureNames.map((name) => [name]))(
		'%s: every single cut gives the same outcome as the whole body',
		async (name) => {
			const bytes = encoder.encode(loadChatFixtureSse(name, { lineEnding: '\r\n' }));
			const expected = await outcomeOf(bytesCutAt(bytes, []));
			// Large fixtures: every cut in the first 2 KB, then every 11th (still crosses every kind of boundary).
			for (let cut = 1; cut < bytes.length; cut += cut < 2048 ? 1 : 11) {
				expect(await outcomeOf(bytesCutAt(bytes, [cut]))).toEqual(expected);
			}
		},
	);

	it.each(chatFixtureNames.map((name) => [name]))(
		'%s: one byte at a time gives the same outcome',
		async (name) => {
			const bytes = encoder.encode(loadChatFixtureSse(name));
			const everyByte = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
			expect(await outcomeOf(bytesCutAt(bytes, everyByte))).toEqual(
				await outcomeOf(bytesCutAt(bytes, [])),
			);
		},
	);

	it('decodes a multi-byte character split across reads', async () => {
		const bytes = encoder.encode(
			'data: {"choices":[{"index":0,"delta":{"content":"✓é"},"finish_reason":"stop"}]}\n\n',
		);
		const checkMark = bytes.indexOf(0xe2);
		const parts = await partsOf(bytesCutAt(bytes, [checkMark + 1, checkMark + 2, checkMark + 4]));
		expect(parts[0]).toEqual({ type: 'text-delta', text: '✓é' });
	});

	it('turns a chunk that is not JSON into an error part and keeps going', async () => {
		const body =
			'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {not json\n\ndata: {"choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
		const parts = await partsOf(bytesCutAt(encoder.encode(body), []));
		expect(parts.map((part) => part.type)).toEqual(['text-delta', 'error', 'text-delta', 'finish']);
		const error = parts[1] as Extract<StreamPart, { type: 'error' }> & { error: { code?: string } };
		expect(error.error.code).toBe('CHAT_INVALID_CHUNK');
		expect(error.error.message).toContain('{not json');
	});

	it('ignores everything after [DONE]', async () => {
		const body =
			'data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\ndata: {"choices":[{"index":0,"delta":{"content":"late"}}]}\n\n';
		const parts = await partsOf(bytesCutAt(encoder.encode(body), []));
		expect(parts).toEqual([
			{ type: 'text-delta', text: 'a' },
			{ type: 'finish', finishReason: 'stop', rawFinishReason: 'stop' },
		]);
	});

	it('tolerates unknown fields, other choices and a null delta', async () => {
		const body = [
			'data: {"id":"x","novel":{"deep":[1]},"choices":[{"index":1,"delta":{"content":"other choice"}},{"index":0,"delta":null,"extra":true}]}',
			'data: {"choices":[{"index":0,"delta":{"content":"mine","annotations":[]},"finish_reason":"stop"}]}',
			'',
		].join('\n\n');
		const parts = await partsOf(bytesCutAt(encoder.encode(body), []));
		expect(parts).toEqual([
			{ type: 'text-delta', text: 'mine' },
			{ type: 'finish', finishReason: 'stop', rawFinishReason: 'stop' },
		]);
	});
});
