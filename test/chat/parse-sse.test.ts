import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from '../../src/chat/parse-sse';

function parseWhole(text: string): SseEvent[] {
	const parser = new SseParser();
	return [...parser.push(text), ...parser.end()];
}

function parseInPieces(pieces: string[]): SseEvent[] {
	const parser = new SseParser();
	return [...pieces.flatMap((piece) => parser.push(piece)), ...parser.end()];
}

describe('SseParser', () => {
	it.each([
		['one event', 'data: {"a":1}\n\n', [{ data: '{"a":1}' }]],
		['no space after the colon', 'data:{"a":1}\n\n', [{ data: '{"a":1}' }]],
		['only one leading space is stripped', 'data:  x\n\n', [{ data: ' x' }]],
		['comment lines are skipped', ': OPENROUTER PROCESSING\n\ndata: x\n\n', [{ data: 'x' }]],
		[
			'CRLF line endings',
			': c\r\n\r\ndata: x\r\n\r\ndata: y\r\n\r\n',
			[{ data: 'x' }, { data: 'y' }],
		],
		['CR line endings', 'data: x\r\rdata: y\r\r', [{ data: 'x' }, { data: 'y' }]],
		['multi-line data joined by LF', 'data: a\ndata: b\n\n', [{ data: 'a\nb' }]],
		[
			'event and id fields kept',
			'event: message\nid: 7\ndata: x\n\n',
			[{ data: 'x', event: 'message', id: '7' }],
		],
		['unknown fields ignored', 'foo: bar\nretry: 100\ndata: x\nweird\n\n', [{ data: 'x' }]],
		['blank lines without data dispatch nothing', '\n\n\nevent: ping\n\n', []],
		['an unterminated last event is still delivered', 'data: x', [{ data: 'x' }]],
		['an event without its blank line is delivered at the end', 'data: x\n', [{ data: 'x' }]],
		['[DONE] is an ordinary event here', 'data: [DONE]\n\n', [{ data: '[DONE]' }]],
	])('%s', (_name, input, expected) => {
		expect(parseWhole(input)).toEqual(expected);
	});

	it('gives the same events for every way of cutting the text in two or three', () => {
		const text =
			': OPENROUTER PROCESSING\r\n\r\ndata: {"x":"é✓"}\r\n\r\nevent: e\ndata: a\ndata: b\n\ndata: [DONE]\n\n';
		const expected = parseWhole(text);
		expect(expected).toHaveLength(3);
		for (let first = 0; first <= text.length; first++) {
			expect(parseInPieces([text.slice(0, first), text.slice(first)])).toEqual(expected);
			for (let second = first; second <= text.length; second += 3) {
				expect(
					parseInPieces([text.slice(0, first), text.slice(first, second), text.slice(second)]),
				).toEqual(expected);
			}
		}
	});

	it('handles a CR at the end of one piece and its LF at the start of the next', () => {
		expect(parseInPieces(['data: x\r', '\n\r', '\ndata: y\r\n\r\n'])).toEqual([
			{ data: 'x' },
			{ data: 'y' },
		]);
	});

	it('keeps a long line cut into one-character pieces intact', () => {
		const payload = 'x'.repeat(5000);
		expect(parseInPieces([...`data: ${payload}\n\n`])).toEqual([{ data: payload }]);
	});
});
