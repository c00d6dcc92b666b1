import { describe, expect, test } from 'vitest';
import { JsonSchemaError } from '../../src/errors/json-schema-error';
import { inferJsonSchemaFromExample } from '../../src/schema/infer-json-schema';
import { validateJson } from '../../src/schema/validate-json';

const closed = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
	type: 'object',
	properties,
	...(required.length > 0 ? { required } : {}),
	additionalProperties: false,
});

describe('inferJsonSchemaFromExample', () => {
	test.each([
		['string', 'x', { type: 'string' }],
		['integer', 3, { type: 'integer' }],
		['number', 2.5, { type: 'number' }],
		['boolean', false, { type: 'boolean' }],
		['null alone: any scalar or null', null, { type: ['string', 'number', 'boolean', 'null'] }],
		[
			'object: every key required, no others',
			{ name: 'Ada', age: 36 },
			closed({ name: { type: 'string' }, age: { type: 'integer' } }),
		],
		['empty object', {}, closed({})],
		['array of integers', [1, 2], { type: 'array', items: { type: 'integer' } }],
		['integers and decimals make number', [1, 2.5], { type: 'array', items: { type: 'number' } }],
		['empty array: any items', [], { type: 'array', items: {} }],
		[
			'null beside a value makes it nullable',
			[{ a: 1 }, { a: null }],
			{ type: 'array', items: closed({ a: { type: ['integer', 'null'] } }) },
		],
		[
			'key missing from some elements is optional',
			[{ a: 1, b: 'x' }, { a: 2 }],
			{ type: 'array', items: closed({ a: { type: 'integer' }, b: { type: 'string' } }, ['a']) },
		],
		[
			'mixed scalars',
			['a', 1, null],
			{ type: 'array', items: { type: ['string', 'integer', 'null'] } },
		],
		[
			'objects beside scalars make anyOf',
			[{ a: 1 }, 'x'],
			{ type: 'array', items: { anyOf: [closed({ a: { type: 'integer' } }), { type: 'string' }] } },
		],
		[
			'nested arrays merge all levels',
			[[1], [2.5, 3]],
			{ type: 'array', items: { type: 'array', items: { type: 'number' } } },
		],
		[
			'a realistic answer',
			{ title: 'Report', score: 0.9, items: [{ id: 1, done: true }], owner: null },
			closed({
				title: { type: 'string' },
				score: { type: 'number' },
				items: {
					type: 'array',
					items: closed({ id: { type: 'integer' }, done: { type: 'boolean' } }),
				},
				owner: { type: ['string', 'number', 'boolean', 'null'] },
			}),
		],
	])('%s', (_name, example, expected) => {
		const schema = inferJsonSchemaFromExample(example);
		expect(schema).toEqual(expected);
		expect(validateJson(example, schema)).toEqual({ valid: true });
	});

	test.each([
		['undefined', undefined, '/: undefined is not a JSON value'],
		['a function inside', { a: () => 1 }, '/a: function is not a JSON value'],
		['NaN inside an array', [1, Number.NaN], '/1: NaN is not a JSON number'],
		['a Date', { when: new Date(0) }, '/when: a Date object is not JSON'],
		['a bigint', 1n, '/: bigint is not a JSON value'],
	])('refuses %s', (_name, example, problem) => {
		expect(() => inferJsonSchemaFromExample(example)).toThrow(JsonSchemaError);
		expect(() => inferJsonSchemaFromExample(example)).toThrow(
			expect.objectContaining({ code: 'INVALID_JSON_EXAMPLE', problems: [problem] }),
		);
	});

	test('refuses a cycle', () => {
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(() => inferJsonSchemaFromExample(cyclic)).toThrow(
			expect.objectContaining({ problems: ['/self: the value contains itself (a cycle)'] }),
		);
	});

	test('the same object twice (not a cycle) is fine', () => {
		const shared = { a: 1 };
		expect(inferJsonSchemaFromExample({ x: shared, y: shared })).toEqual(
			closed({ x: closed({ a: { type: 'integer' } }), y: closed({ a: { type: 'integer' } }) }),
		);
	});
});
