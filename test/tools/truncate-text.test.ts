import { describe, expect, it } from 'vitest';
import { truncateText } from '../../src/tools/truncate-text';

const note = (shown: number, total: number) =>
	`\n[Output truncated: showing the first ${shown} of ${total} characters.]`;

describe('truncateText', () => {
	it.each([
		['short text stays', 'abc', 10, 'abc'],
		['text at the limit stays', 'abcdefghij', 10, 'abcdefghij'],
		['long text is cut with a note', 'abcdefghijkl', 10, `abcdefghij${note(10, 12)}`],
		[
			'text already cut to the limit stays (no second note)',
			`abcdefghij${note(10, 12)}`,
			10,
			`abcdefghij${note(10, 12)}`,
		],
		['text already cut to a lower limit stays', `abcde${note(5, 12)}`, 10, `abcde${note(5, 12)}`],
		[
			'text cut to a higher limit is cut again, its note keeping the original length',
			`abcdefghij${note(10, 5000)}`,
			4,
			`abcd${note(4, 5000)}`,
		],
		[
			'a note inside the text is not the end note',
			`ab${note(2, 9)} and more text here`,
			10,
			`ab\n[Output${note(10, 2 + note(2, 9).length + 19)}`,
		],
	])('%s', (_label, text, maxLength, expected) => {
		expect(truncateText(text, maxLength)).toBe(expected);
	});
});
