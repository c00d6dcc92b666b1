import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FromAIError } from '../../src/errors/from-ai-error';
import { cookStringLiteral } from '../../src/from-ai/cook-string-literal';
import { findFromAICalls } from '../../src/from-ai/find-from-ai-calls';

/** Pieces of n8n expressions, so random inputs reach the lexer's and parser's corners. */
const FRAGMENTS = [
	'={{',
	'{{',
	'}}',
	'\\}}',
	'\\{{',
	'$fromAI(',
	'$fromai(',
	'$FROMAI(',
	'$fromAI',
	"'key'",
	'"d"',
	'`',
	'${',
	'}',
	'{',
	'(',
	')',
	'[',
	']',
	',',
	"'",
	'"',
	'\\',
	'/',
	'//',
	'/*',
	'*/',
	'\n',
	' ',
	'.',
	'?.',
	'x',
	'1',
	'-',
	'json',
	'number',
	'true',
	'null',
	"'a\\'b'",
	'/re[/]x/g',
	'return ',
	'typeof ',
	"{a: 1, 'b': [2]}",
	'undefined',
	'\u2028',
	'é',
	'...',
];

function scanOnlyThrowsFromAIError(value: string): void {
	try {
		const markers = findFromAICalls(value);
		for (const marker of markers) {
			// Every marker's span is a call inside its segment.
			expect(marker.start).toBeGreaterThanOrEqual(marker.segment.start);
			expect(marker.end).toBeLessThanOrEqual(marker.segment.end);
			expect(value.slice(marker.start, marker.start + 7).toLowerCase()).toBe('$fromai');
			expect(value[marker.end - 1]).toBe(')');
			expect(marker.key).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		}
	} catch (error) {
		expect(error).toBeInstanceOf(FromAIError);
		const index = (error as FromAIError).index;
		expect(index).toBeGreaterThanOrEqual(0);
		expect(index).toBeLessThanOrEqual(value.length);
	}
}

describe('fuzz: the scanner throws only FromAIError and always finishes', () => {
	test('arbitrary strings', { timeout: 120_000 }, () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), (text) => scanOnlyThrowsFromAIError(`=${text}`)),
			{ numRuns: 3000 },
		);
	});

	test('strings built from expression fragments', { timeout: 120_000 }, () => {
		const fragmentString = fc
			.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })), {
				maxLength: 60,
			})
			.map((parts) => parts.join(''));
		fc.assert(
			fc.property(fragmentString, (text) => scanOnlyThrowsFromAIError(text)),
			{ numRuns: 5000 },
		);
	});

	test('calls with arbitrary argument text', { timeout: 120_000 }, () => {
		const argumentText = fc
			.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), {
				maxLength: 20,
			})
			.map((parts) => parts.join(''));
		fc.assert(
			fc.property(argumentText, (text) =>
				scanOnlyThrowsFromAIError(`={{ $fromAI('k', ${text}) }}`),
			),
			{ numRuns: 3000 },
		);
	});

	test('long pathological inputs', { timeout: 120_000 }, () => {
		for (const value of [
			`={{ ${'('.repeat(20_000)} }}`,
			`={{ ${"$fromAI('a', ".repeat(5_000)} }}`,
			`={{ ${'`${'.repeat(10_000)} }}`,
			`={{ ${'/'.repeat(20_000)} }}`,
			`={{ '${'\\'.repeat(20_001)} }}`,
			'{{'.repeat(20_000),
			`={{ ${'/['.repeat(20_000)} }}`,
			`={{ $fromAI('a', '', 'json', ${'['.repeat(5_000)}1${']'.repeat(5_000)}) }}`,
			`={{ $fromAI('a', '', 'json', ${'{a:'.repeat(3_000)}1${'}'.repeat(3_000)}) }}`,
		]) {
			scanOnlyThrowsFromAIError(value);
		}
	});
});

describe('fuzz: string literals cook as JavaScript does', () => {
	test('any string written as a JSON (double-quoted) literal', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', maxLength: 50 }), (text) => {
				expect(cookStringLiteral(JSON.stringify(text).slice(1, -1), false)).toBe(text);
			}),
			{ numRuns: 500 },
		);
	});

	// The test uses the JavaScript engine itself as the oracle (the source never evaluates code).
	test.each([
		"'\\0'",
		"'\\101'",
		"'\\8'",
		"'a\\\nb'",
		"'\\u{10FFFF}'",
		"'\\x7e'",
		"`a\\u0041${''}`".replace("${''}", ''),
		'`line\\\nnext`',
		"'\\v\\f\\b'",
	])('%s', (literal) => {
		const expected = runInNewContext(literal) as string;
		expect(cookStringLiteral(literal.slice(1, -1), literal.startsWith('`'))).toBe(expected);
	});

	test.each(["'\\x4'", "'\\u12'", "'\\u{110000}'", '`\\1`'])(
		'malformed %s is refused',
		(literal) => {
			expect(cookStringLiteral(literal.slice(1, -1), literal.startsWith('`'))).toBeUndefined();
		},
	);
});
