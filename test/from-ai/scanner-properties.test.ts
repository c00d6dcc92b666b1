/**
 * Properties of the `$fromAI` scanner and the parameter walk on arbitrary input, beside the
 * fuzz tests (fuzz.test.ts): unicode everywhere (astral characters, lone surrogates, line
 * separators, a full-width `＄`), backslashes and quotes around `{{ }}`, and whole parameter
 * trees with odd keys. Nothing but a ToolbridgeError is ever thrown, the throwing and the
 * collecting entry points agree, and every marker's path leads back to its value. Inputs are
 * bounded in size (a few hundred characters), so no case can run long.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ToolbridgeError } from '../../src/errors/toolbridge-error';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { findFromAICalls, scanFromAICalls } from '../../src/from-ai/find-from-ai-calls';

const FRAGMENTS = [
	'={{',
	'{{',
	'}}',
	'{{ ',
	' }}',
	'\\{{',
	'\\}}',
	'\\',
	'\\\\',
	"'",
	'"',
	'`',
	'${',
	'$fromAI(',
	'$fromAI',
	'$fromai(',
	'$fromAi(',
	'$FromAI(',
	'$json',
	"'key'",
	'"key"',
	'`key`',
	"'a b'",
	"'string'",
	"'number'",
	"'boolean'",
	"'json'",
	', ',
	')',
	'(',
	'[',
	']',
	'{',
	'}',
	'/',
	'//',
	'/*',
	'*/',
	'\n',
	'\r\n',
	'\t',
	' ',
	'é',
	'😀',
	'\uD83D',
	'\uDE00',
	'\u2028',
	'\u00A0',
	'\uFEFF',
	'＄fromAI(',
	'ｆｒｏｍ',
	'\u0000',
	'x',
	'1',
	'true',
	'null',
];

/** An expression-like string: fragments, short random strings and arbitrary code points. */
const expressionText = fc
	.array(
		fc.oneof(
			fc.constantFrom(...FRAGMENTS),
			fc.string({ unit: 'binary', maxLength: 3 }),
			fc.string({
				unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
				maxLength: 2,
			}),
		),
		{
			maxLength: 50,
		},
	)
	.map((parts) => parts.join(''));

/** What the scan of `value` yields, failing on anything but ToolbridgeErrors with positions inside the value. */
function scanChecked(value: string): ReturnType<typeof scanFromAICalls> {
	const scan = scanFromAICalls(value);
	for (const error of scan.errors) {
		expect(ToolbridgeError.isInstance(error)).toBe(true);
		expect(error.index ?? 0).toBeGreaterThanOrEqual(0);
		expect(error.index ?? 0).toBeLessThanOrEqual(value.length);
	}
	for (const marker of scan.markers) {
		expect(value.slice(marker.start, marker.start + 7).toLowerCase()).toBe('$fromai');
		expect(value[marker.end - 1]).toBe(')');
		expect(marker.segment.start).toBeLessThanOrEqual(marker.start);
		expect(marker.end).toBeLessThanOrEqual(marker.segment.end);
	}
	return scan;
}

/** Keys a parameter tree may have: identifiers, inherited member names, and anything else. */
const parameterKey = fc.oneof(
	fc.constantFrom(
		'value',
		'options',
		'fields',
		'__rl',
		'mode',
		'toString',
		'constructor',
		'__proto__',
		'valueOf',
		'a.b',
		'x[0]',
		'["q"]',
		'0',
		'',
		'é',
		'\u2028',
	),
	fc.string({ unit: 'binary', maxLength: 4 }),
);

/** Node parameters: nested objects and arrays whose strings are expressions half the time. */
const parameterTree: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		fc.oneof(
			expressionText.map((text) => `=${text}`),
			expressionText,
			fc.integer(),
			fc.boolean(),
			fc.constant(null),
		),
		fc.array(tie('value'), { maxLength: 4 }),
		fc.dictionary(parameterKey, tie('value'), { maxKeys: 4 }),
	),
})).value;

describe('scanner: arbitrary expression text', () => {
	test('findFromAICalls throws only ToolbridgeErrors, exactly the first problem the collecting scan reports', () => {
		fc.assert(
			fc.property(expressionText, fc.boolean(), (text, withEquals) => {
				const value = withEquals ? `=${text}` : text;
				const scan = scanChecked(value);
				let thrown: unknown;
				let markers;
				try {
					markers = findFromAICalls(value);
				} catch (error) {
					thrown = error;
				}
				if (thrown !== undefined) {
					expect(ToolbridgeError.isInstance(thrown), `threw ${String(thrown)}`).toBe(true);
					const first = scan.errors[0];
					expect(thrown).toMatchObject({
						code: first?.code,
						index: first?.index,
						message: first?.message,
					});
				} else {
					expect(scan.errors).toEqual([]);
					expect(markers).toEqual(scan.markers);
				}
			}),
			{ numRuns: 2000 },
		);
	});

	test('a $fromAI call with arbitrary argument text inside {{ }}: a marker or a ToolbridgeError', () => {
		fc.assert(
			fc.property(expressionText, expressionText, (before, argumentText) => {
				scanChecked(`={{ ${before} $fromAI('k', ${argumentText}) }}`);
				scanChecked(`={{ $fromAI(${argumentText}) }}${before}`);
			}),
			{ numRuns: 600 },
		);
	});
});

describe('parameter walk: arbitrary parameter trees', () => {
	test('never throws; every error is a ToolbridgeError with its path; every marker path leads back to its value', () => {
		fc.assert(
			fc.property(parameterTree, (parameters) => {
				const { markers, errors } = collectFromAIMarkers(parameters, { nodeName: 'Node' });
				for (const error of errors) {
					expect(ToolbridgeError.isInstance(error)).toBe(true);
					expect(error.nodeName).toBe('Node');
					expect(typeof error.path).toBe('string');
				}
				for (const marker of markers) {
					const value = marker.segments.reduce<unknown>(
						(current, segment) => (current as Record<string | number, unknown>)?.[segment],
						parameters,
					);
					expect(typeof value).toBe('string');
					expect(
						(value as string).slice(marker.start, marker.end).toLowerCase().startsWith('$fromai('),
					).toBe(true);
				}
			}),
			{ numRuns: 1500 },
		);
	});
});
