import { describe, expect, it } from 'vitest';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { getAtPath, setAtPath } from '../../src/tools/parameter-path';
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
	it('reads and writes at a path of segments', () => {
		const root = { a: { b: [{ 'x y': { c: 1 } }] } };
		expect(getAtPath(root, ['a', 'b', 0, 'x y', 'c'])).toBe(1);
		expect(getAtPath({ a: [{ b: 1 }] }, ['a', 0, 'b'])).toBe(1);
		expect(getAtPath(root, ['a', 'missing', 0])).toBeUndefined();
		setAtPath(root, ['a', 'b', 0, 'x y', 'c'], 2);
		expect(root.a.b[0]['x y'].c).toBe(2);
		expect(() => setAtPath(root, [], 1)).toThrow(/root/);
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
