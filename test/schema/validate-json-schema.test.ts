import Ajv from 'ajv';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { JsonSchema } from '../../src/schema/json-schema';
import { describeSchemaProblem } from '../../src/schema/schema-problems';
import { validateJsonSchema } from '../../src/schema/validate-json';

/** The shape MCP servers built on pydantic send: `$defs`, `$ref`, `anyOf: [X, null]` for Optional. */
const booking: JsonSchema = {
	type: 'object',
	$defs: {
		address: {
			type: 'object',
			properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
			required: ['city'],
			additionalProperties: false,
		},
	},
	properties: {
		guests: { type: 'integer', minimum: 1, maximum: 10 },
		when: { type: 'string', format: 'date-time' },
		room: { type: 'string', enum: ['single', 'double'] },
		tags: {
			type: 'array',
			items: { type: 'string', minLength: 2 },
			uniqueItems: true,
			maxItems: 3,
		},
		home: { anyOf: [{ $ref: '#/$defs/address' }, { type: 'null' }] },
		id: { oneOf: [{ type: 'integer' }, { type: 'number' }] },
		note: { anyOf: [{ type: 'string' }, { type: 'number' }] },
		kind: { const: 'hotel' },
	},
	required: ['guests', 'room'],
	additionalProperties: false,
};

const lines = (value: unknown, schema: JsonSchema = booking): string[] =>
	validateJsonSchema(value, schema).map(describeSchemaProblem);

describe('validateJsonSchema', () => {
	test.each([
		['valid', { guests: 2, room: 'double', home: null }, []],
		[
			'strict types: "2" is not an integer',
			{ guests: '2', room: 'single' },
			['"guests": expected an integer, received the string "2"'],
		],
		[
			'missing required, with the expected type',
			{},
			[
				'"guests": expected an integer (required), received nothing',
				'"room": expected one of "single", "double" (required), received nothing',
			],
		],
		[
			'extra argument, naming the known ones',
			{ extra: 1, guests: 1, room: 'single' },
			[
				'"extra": expected no such argument (known: guests, when, room, tags, home, id, note, kind), received the number 1',
			],
		],
		[
			'wrong type and enum: one problem',
			{ guests: 1, room: 42 },
			['"room": expected one of "single", "double", received the number 42'],
		],
		['bounds', { guests: 11, room: 'single' }, ['"guests": expected at most 10, received 11']],
		[
			'format',
			{ guests: 1, room: 'single', when: 'tomorrow' },
			['"when": expected a string in date-time format, received the string "tomorrow"'],
		],
		[
			'array bounds, uniqueness and items',
			{ guests: 1, room: 'single', tags: ['a', 'bb', 'bb', 'cc'] },
			[
				'"tags": expected at most 3 items, received 4 items',
				'"tags": expected no duplicate items, received an array with items 1 and 2 equal',
				'"tags[0]": expected at least 2 characters, received 1 character',
			],
		],
		[
			'anyOf [$ref, null]: the problems inside the one branch that takes an object',
			{ guests: 1, room: 'single', home: { city: 5, zip: '1', street: 'Main' } },
			[
				'"home.city": expected a string, received the number 5',
				'"home.zip": expected a string matching the pattern ^[0-9]{5}$, received the string "1"',
				'"home.street": expected no such property (known: city, zip), received the string "Main"',
			],
		],
		[
			'anyOf [$ref, null]: a value no branch takes',
			{ guests: 1, room: 'single', home: 'Paris' },
			['"home": expected an object or null, received the string "Paris"'],
		],
		[
			'anyOf: no branch takes a boolean',
			{ guests: 1, room: 'single', note: true },
			['"note": expected a string or a number, received the boolean true'],
		],
		[
			'oneOf: more than one branch fits',
			{ guests: 1, room: 'single', id: 5 },
			[
				'"id": expected exactly one of an integer or a number, received the number 5, which fits 2 of them',
			],
		],
		[
			'const',
			{ guests: 1, room: 'single', kind: 'motel' },
			['"kind": expected "hotel", received the string "motel"'],
		],
		['not an object at all', [1, 2], ['"(arguments)": expected an object, received an array']],
	])('%s', (_name, value, expected) => {
		expect(lines(value)).toEqual(expected);
	});

	test('problems follow the order of the arguments, missing ones first', () => {
		expect(
			lines({ room: 1, guests: 'x' }, { ...booking, required: ['guests', 'room', 'when'] }),
		).toEqual([
			'"when": expected a string (required), received nothing',
			'"room": expected one of "single", "double", received the number 1',
			'"guests": expected an integer, received the string "x"',
		]);
	});

	test('gives each problem as field / expected / received', () => {
		expect(validateJsonSchema({ guests: 0, room: 'single' }, booking)).toEqual([
			{ field: 'guests', expected: 'at least 1', received: '0' },
		]);
	});

	test('throws INVALID_JSON_SCHEMA for a schema ajv cannot compile', () => {
		expect(() => validateJsonSchema({}, { type: 'wrong' })).toThrow(
			expect.objectContaining({ code: 'INVALID_JSON_SCHEMA' }),
		);
	});
});

describe('compiling once', () => {
	afterEach(() => vi.restoreAllMocks());

	test('the same schema, also as a new object with the same JSON, is compiled once', () => {
		const compile = vi.spyOn(Ajv.prototype, 'compile');
		const schema: JsonSchema = {
			type: 'object',
			properties: { text: { type: 'string' } },
			description: 'compiled once',
		};
		for (let round = 0; round < 3; round++) {
			expect(validateJsonSchema({ text: 1 }, schema)).toHaveLength(1);
			expect(
				validateJsonSchema({ text: 'ok' }, JSON.parse(JSON.stringify(schema)) as JsonSchema),
			).toEqual([]);
		}
		expect(compile).toHaveBeenCalledTimes(1);
	});

	test('beyond the most recent 256 schemas, ajv forgets the oldest', () => {
		const remove = vi.spyOn(Ajv.prototype, 'removeSchema');
		for (let index = 0; index < 300; index++)
			validateJsonSchema(index, { type: 'integer', description: `schema ${index} of many` });
		expect(remove.mock.calls.length).toBeGreaterThanOrEqual(300 - 256);
		expect(
			validateJsonSchema('x', { type: 'integer', description: 'schema 0 of many' }),
		).toHaveLength(1);
	});
});
