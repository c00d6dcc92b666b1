import { describe, expect, test } from 'vitest';
import type { JsonSchema } from '../../src/schema/json-schema';
import { JsonSchemaError } from '../../src/errors/json-schema-error';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { buildToolSchema } from '../../src/schema/build-tool-schema';
import { validateJson } from '../../src/schema/validate-json';

const person: JsonSchema = {
	$schema: 'http://json-schema.org/draft-07/schema#',
	type: 'object',
	properties: {
		name: { type: 'string', minLength: 1 },
		age: { type: 'integer', minimum: 0 },
		role: { enum: ['admin', 'user'] },
		tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
		address: { $ref: '#/definitions/address' },
	},
	required: ['name', 'age'],
	additionalProperties: false,
	definitions: {
		address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
	},
};

describe('validateJson', () => {
	test.each([
		['valid', { name: 'Ada', age: 36 }, []],
		[
			'wrong type, with what was found',
			{ name: 'Ada', age: '36' },
			['/age: must be integer (found "36")'],
		],
		['missing required', { age: 1 }, ["/: required property 'name' is missing"]],
		[
			'extra property, pointing at it',
			{ name: 'Ada', age: 1, nick: 'A' },
			['/nick: is not an allowed property'],
		],
		[
			'enum',
			{ name: 'Ada', age: 1, role: 'root' },
			['/role: must be one of "admin", "user" (found "root")'],
		],
		[
			'every error, not the first',
			{ name: '', age: -1 },
			['/name: must NOT have fewer than 1 characters (found "")', '/age: must be >= 0 (found -1)'],
		],
		[
			'nested through $ref',
			{ name: 'Ada', age: 1, address: {} },
			["/address: required property 'city' is missing"],
		],
		[
			'array item pointer',
			{ name: 'Ada', age: 1, tags: ['a', 2] },
			['/tags/1: must be string (found 2)'],
		],
		[
			'deep-equal uniqueness',
			{ name: 'Ada', age: 1, tags: ['a', 'a'] },
			[
				'/tags: must NOT have duplicate items (items ## 1 and 0 are identical) (found an array of 2)',
			],
		],
		['not an object at all', 'Ada', ['/: must be object (found "Ada")']],
	])('%s', (_name, value, errors) => {
		expect(validateJson(value, person)).toEqual(
			errors.length === 0 ? { valid: true } : { valid: false, errors },
		);
	});

	const { markers } = collectFromAIMarkers({
		a: "={{ $fromAI('data', '', 'json') }} {{ $fromAI('n', '', 'number', 2) }}",
	});
	const toolSchema = buildToolSchema(markers).jsonSchema as unknown as JsonSchema;

	test.each([
		['json object', { data: { a: 1 } }, true],
		['json array, default left out', { data: [1] }, true],
		['empty json object', { data: {} }, false],
		['json as a string', { data: '{"a":1}' }, false],
		['number as a string', { data: [1], n: '2' }, false],
	])('compiler schema: %s', (_name, value, valid) => {
		expect(validateJson(value, toolSchema).valid).toBe(valid);
	});

	test.each([
		[
			'2020-12 prefixItems',
			{
				$schema: 'https://json-schema.org/draft/2020-12/schema',
				type: 'array',
				prefixItems: [{ type: 'string' }],
			},
			[1],
			false,
		],
		[
			'2019-09 dependentRequired',
			{ $schema: 'https://json-schema.org/draft/2019-09/schema', dependentRequired: { a: ['b'] } },
			{ a: 1 },
			false,
		],
		[
			'draft-04 is read as draft-07',
			{ $schema: 'http://json-schema.org/draft-04/schema#', type: 'integer' },
			3,
			true,
		],
		['OpenAPI nullable (Gemini shape)', { type: 'string', nullable: true }, null, true],
		['email format', { type: 'string', format: 'email' }, 'not an email', false],
		['email format, valid', { type: 'string', format: 'email' }, 'ada@example.com', true],
		['date-time format wants a time', { type: 'string', format: 'date-time' }, '2026-11-22', false],
		[
			'date-time format, valid',
			{ type: 'string', format: 'date-time' },
			'2026-11-22T21:20:00Z',
			true,
		],
		[
			'uuid format, 2020-12',
			{ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string', format: 'uuid' },
			'nope',
			false,
		],
		[
			'a format ajv-formats does not know is not checked, nor an error',
			{ type: 'string', format: 'phone-number' },
			'anything',
			true,
		],
	])('%s', (_name, schema, value, valid) => {
		expect(validateJson(value, schema as JsonSchema).valid).toBe(valid);
	});

	test('an invalid schema is a JsonSchemaError', () => {
		expect(() => validateJson(1, { type: 'integer', minimum: 'zero' })).toThrow(JsonSchemaError);
		expect(() => validateJson(1, { type: 'wrong' })).toThrow(
			expect.objectContaining({ code: 'INVALID_JSON_SCHEMA' }),
		);
	});

	test('two schemas with one $id do not collide', () => {
		expect(validateJson(1, { $id: 'https://example.com/s', type: 'integer' }).valid).toBe(true);
		expect(validateJson(1, { $id: 'https://example.com/s', type: 'string' }).valid).toBe(false);
	});

	test('many errors are capped with a count', () => {
		const schema: JsonSchema = { type: 'array', items: { type: 'string' } };
		const result = validateJson(
			Array.from({ length: 30 }, (_, index) => index),
			schema,
		);
		expect(result.valid).toBe(false);
		if (!result.valid) {
			expect(result.errors).toHaveLength(21);
			expect(result.errors[20]).toBe('… and 10 more problems');
		}
	});
});
