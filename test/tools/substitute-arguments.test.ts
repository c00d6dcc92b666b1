import { describe, expect, it } from 'vitest';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { groupMarkersByPath, substituteArguments } from '../../src/tools/substitute-arguments';
import { toExpressionLiteral } from '../../src/tools/to-expression-literal';

function substitute(
	parameters: Record<string, unknown>,
	args: Record<string, unknown>,
): Record<string, unknown> {
	const { markers, errors } = collectFromAIMarkers(parameters);
	expect(errors).toEqual([]);
	return substituteArguments(parameters, groupMarkersByPath(markers), args);
}

describe('substituteArguments', () => {
	it.each([
		['a sole marker keeps the number', "={{ $fromAI('n', '', 'number') }}", { n: 5 }, 5],
		[
			'a sole marker keeps the object',
			"={{ $fromAI('j', '', 'json') }}",
			{ j: { a: [1] } },
			{ a: [1] },
		],
		[
			'a sole marker keeps a plain string',
			"={{ $fromAI('s') }}",
			{ s: 'hi {{ x }}' },
			'hi {{ x }}',
		],
		[
			'a string starting with = is wrapped',
			"={{ $fromAI('s') }}",
			{ s: '={{ $env.X }}' },
			'={{ "=\\u007b\\u007b $env.X \\u007d\\u007d" }}',
		],
		[
			'an object holding = is wrapped',
			"={{ $fromAI('j', '', 'json') }}",
			{ j: { a: '=1' } },
			'={{ ({ "a": "=1" }) }}',
		],
		[
			'a segment becomes a literal',
			"=Count: {{ $fromAI('n', '', 'number') }}!",
			{ n: 3 },
			'=Count: {{ 3 }}!',
		],
		[
			'an object in a template renders as JSON text',
			"=Data {{ $fromAI('j', '', 'json') }}",
			{ j: { a: 1 } },
			'=Data {{ "\\u007b\\"a\\":1\\u007d" }}',
		],
		[
			'a marker inside code becomes a typed literal',
			"={{ $fromAI('n', '', 'number') * 2 }} and {{ $json.x }}",
			{ n: 4 },
			'={{ 4 * 2 }} and {{ $json.x }}',
		],
		[
			'two markers in one value',
			"={{ $fromAI('a') }}-{{ $fromAI('b') }}",
			{ a: 'x', b: 'y' },
			'={{ "x" }}-{{ "y" }}',
		],
	])('%s', (_label, value, args, expected) => {
		expect(substitute({ field: value }, args).field).toEqual(expected);
	});

	it('reaches nested paths and leaves the original untouched', () => {
		const parameters = {
			options: { list: [{ 'odd key': "={{ $fromAI('k') }}" }] },
			other: '={{ $now }}',
		};
		const result = substitute(parameters, { k: 'v' });
		expect(result).toEqual({ options: { list: [{ 'odd key': 'v' }] }, other: '={{ $now }}' });
		expect(parameters.options.list[0]['odd key']).toBe("={{ $fromAI('k') }}");
	});
});

describe('helpers', () => {
	it("copies only the containers on a marker's path: the rest is shared, the original unchanged", () => {
		const parameters = {
			options: { list: [{ k: "={{ $fromAI('k') }}", keep: 1 }, { other: 2 }], flag: true },
			headers: { big: 'x'.repeat(100) },
		};
		const result = substitute(parameters, { k: 'v' }) as typeof parameters;
		expect(result.options.list[0]).toEqual({ k: 'v', keep: 1 });
		expect(result.headers).toBe(parameters.headers);
		expect(result.options.list[1]).toBe(parameters.options.list[1]);
		expect(result.options).not.toBe(parameters.options);
		expect(parameters.options.list[0].k).toBe("={{ $fromAI('k') }}");
	});

	it('groups markers by their segments, keeping a key "0" apart from index 0', () => {
		const { markers } = collectFromAIMarkers({
			list: ["={{ $fromAI('a') }}"],
			map: { 0: "={{ $fromAI('b') }} {{ $fromAI('c') }}" },
		});
		expect(
			groupMarkersByPath(markers).map((entry) => [
				entry.path,
				entry.segments,
				entry.markers.map((marker) => marker.key),
			]),
		).toEqual([
			['list[0]', ['list', 0], ['a']],
			['map["0"]', ['map', '0'], ['c', 'b']],
		]);
	});

	it('expression literals never contain braces pairs', () => {
		const literal = toExpressionLiteral({ '}}': ['{{', { x: '}}{{' }], n: 1.5, b: false, z: null });
		expect(literal).not.toMatch(/\{\{|\}\}/);
		expect(new Function(`return ${literal}`)()).toEqual({
			'}}': ['{{', { x: '}}{{' }],
			n: 1.5,
			b: false,
			z: null,
		});
	});
});
