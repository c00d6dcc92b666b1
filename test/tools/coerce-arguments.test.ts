import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { buildToolSchema } from '../../src/schema/build-tool-schema';
import { checkArguments, coerceArguments } from '../../src/tools/coerce-arguments';
import { formatToolOutput } from '../../src/tools/format-tool-output';

const { markers } = collectFromAIMarkers({
	n: "={{ $fromAI('n', 'a number', 'number') }}",
	b: "={{ $fromAI('b', 'a flag', 'boolean', false) }}",
	s: "={{ $fromAI('s', 'text') }}",
	j: "={{ $fromAI('j', 'data', 'json') }}",
});
const schema = buildToolSchema(markers);
const check = (input: unknown) => checkArguments(input, schema.zod, schema.parameters);

describe('checkArguments', () => {
	it.each([
		[
			{ n: '5', s: 7, j: '{"a":1}' },
			{ n: 5, b: false, s: '7', j: { a: 1 } },
		],
		[
			{ n: ' -2.5e1 ', b: 'True', s: 'x', j: [1] },
			{ n: -25, b: true, s: 'x', j: [1] },
		],
		[
			{ n: 1, b: null, s: 'x', j: { a: 1 } },
			{ n: 1, b: false, s: 'x', j: { a: 1 } },
		],
	])('coerces %j', (input, expected) => {
		expect(check(input)).toEqual({ ok: true, args: expected });
	});

	it.each([
		[{ n: 'five', s: 'x', j: [1] }, 'n', 'a number', 'the string "five"'],
		[{ n: 1, b: 'yes', s: 'x', j: [1] }, 'b', 'a boolean', 'the string "yes"'],
		[{ n: 1, s: 'x', j: [] }, 'j', 'a non-empty JSON object or array', 'an array'],
		[{ n: 1, j: [1] }, 's', 'a string', 'nothing'],
	])('rejects %j', (input, field, expected, received) => {
		const result = check(input);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.problems[0]).toMatchObject({ field, expected, received });
	});

	it('rejects non-objects', () => {
		expect(check('n=5')).toMatchObject({
			ok: false,
			problems: [{ field: '(arguments)', expected: 'a JSON object' }],
		});
	});
});

describe('formatToolOutput', () => {
	it('cuts long output with a note', () => {
		const items = Array.from({ length: 500 }, (_, index) => ({
			json: { index, text: 'x'.repeat(50) },
		}));
		const text = formatToolOutput(items, 1000);
		expect(text.length).toBeLessThan(1100);
		expect(text).toMatch(/\n\[Output truncated: showing the first 1000 of \d+ characters\.\]$/);
		expect(formatToolOutput(items.slice(0, 1))).toBe(JSON.stringify([items[0].json]));
	});

	it('mentions binary next to json', () => {
		const text = formatToolOutput([
			{
				json: { ok: true },
				binary: { file: { data: 'aGk=', mimeType: 'text/plain', fileName: 'a.txt' } },
			},
		]);
		expect(text).toBe(
			'[{"ok":true}]\n(Binary data not shown: item 0: "file" (a.txt, text/plain, 3 bytes).)',
		);
	});
});

describe('the scalar fast path gives exactly what Zod gives', () => {
	const { markers: scalarMarkers } = collectFromAIMarkers({
		n: "={{ $fromAI('n', 'a number', 'number') }}",
		d: "={{ $fromAI('d', 'a number with a default', 'number', 3) }}",
		b: "={{ $fromAI('b', 'a flag', 'boolean', false) }}",
		s: "={{ $fromAI('s', 'text') }}",
		z: "={{ $fromAI('z', 'text that may be null', 'string', null) }}",
	});
	const scalars = buildToolSchema(scalarMarkers);
	const value = fc.oneof(
		fc.constant(undefined),
		fc.constant(null),
		fc.string(),
		fc.double(),
		fc.boolean(),
		fc.constantFrom('5', 'true', ' 2.5 ', 'NaN'),
	);
	it('for any arguments (accepted, coerced or refused)', () => {
		fc.assert(
			fc.property(
				fc.record(
					{ n: value, d: value, b: value, s: value, z: value, extra: value },
					{ requiredKeys: [] },
				),
				(input) => {
					const fast = checkArguments(input, scalars.zod, scalars.parameters);
					const parsed = scalars.zod.safeParse(coerceArguments(input, scalars.parameters));
					expect(fast.ok).toBe(parsed.success);
					if (fast.ok && parsed.success) {
						expect(fast.args).toStrictEqual(parsed.data);
						expect(Object.keys(fast.args)).toEqual(Object.keys(parsed.data));
					}
				},
			),
			{ numRuns: 2000 },
		);
	});
});
