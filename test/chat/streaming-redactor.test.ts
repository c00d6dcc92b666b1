import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/chat/redactor';
import { StreamingRedactor } from '../../src/chat/streaming-redactor';

const key = 'model-key-7f3a9c21b6e4';
const password = 'pa"ss\\word';
const redactor = new Redactor([key, password, 'short']);

/** The text cut at `cuts` (offsets), pushed piece by piece, then flushed. */
function streamed(text: string, cuts: number[]): { pieces: string[]; joined: string } {
	const stream = new StreamingRedactor(redactor);
	const offsets = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
	const pieces: string[] = [];
	let from = 0;
	for (const offset of [...offsets, text.length]) {
		pieces.push(stream.push(text.slice(from, offset)));
		from = offset;
	}
	pieces.push(stream.flush());
	return { pieces, joined: pieces.join('') };
}

describe('StreamingRedactor', () => {
	it('a key split across pieces comes out redacted, as the whole text would', () => {
		const text = `My key is ${key}, as asked.`;
		const { pieces, joined } = streamed(text, [12, 15, 20, 27]);
		expect(joined).toBe('My key is [REDACTED], as asked.');
		expect(pieces.join('|')).not.toContain(key.slice(0, 3));
	});

	it('holds back one character less than the longest secret text, and the word being written', () => {
		const stream = new StreamingRedactor(new Redactor([key]));
		const text = `${'a '.repeat(40)}abc`;
		const first = stream.push(text);
		// 83 characters: the last key.length - 1 = 21 are held (they may be a key's start).
		expect(first).toBe(text.slice(0, 83 - (key.length - 1)));
		// Short text: only the word being written is held.
		expect(new StreamingRedactor(new Redactor(['abcdef'])).push('hello wor')).toBe('hell');
		expect(first + stream.flush()).toBe(text);
	});

	it('holds a credential-shaped word until it ends: sk- keys and bearer tokens nobody named', () => {
		const stream = new StreamingRedactor(new Redactor());
		expect(stream.push('use sk-abcd')).toBe('use ');
		expect(stream.push('efghijklmnop1234')).toBe('');
		expect(stream.push(' now, Bearer ')).toBe('[REDACTED] now, ');
		expect(stream.push('abcdefgh12345')).toBe('');
		expect(stream.flush()).toBe('[REDACTED]');
	});

	it('without secrets, ordinary text passes a word behind', () => {
		const stream = new StreamingRedactor(new Redactor());
		expect(stream.push('Hello wor')).toBe('Hello ');
		expect(stream.push('ld!')).toBe('world!');
	});

	it('any cut of any text gives the whole text redacted', () => {
		const words = fc.constantFrom(
			'hello',
			'the',
			key,
			password,
			JSON.stringify(password).slice(1, -1),
			encodeURIComponent(key),
			'sk-abcdefghijklmnop1234',
			'Bearer abcdefgh12345',
			'short',
			'\n',
			',',
		);
		fc.assert(
			fc.property(
				fc.array(words, { maxLength: 12 }),
				fc.array(fc.nat(400), { maxLength: 10 }),
				(parts, cuts) => {
					const text = parts.join(' ');
					const { joined } = streamed(text, cuts);
					expect(joined).toBe(redactor.text(text));
					expect(joined).not.toContain(key);
				},
			),
			{ numRuns: 500 },
		);
	});
});
