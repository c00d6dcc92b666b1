import { describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { FromAIKeyConflictError } from '../../src/errors/from-ai-error';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { buildToolSchema } from '../../src/schema/build-tool-schema';
import { mergeFromAIMarkers } from '../../src/schema/merge-from-ai-markers';

const require = createRequire(__filename);
const { getSchema } =
	require('n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool') as {
		getSchema: (node: unknown) => Parameters<typeof toJsonSchema>[0];
	};

function schemaOf(parameters: Record<string, unknown>) {
	const { markers, errors } = collectFromAIMarkers(parameters, { nodeName: 'Node' });
	expect(errors).toEqual([]);
	return buildToolSchema(markers, { nodeName: 'Node' });
}

describe('buildToolSchema: JSON Schema', () => {
	test.each([
		['string', "={{ $fromAI('a', 'An a') }}", { type: 'string', description: 'An a' }, true],
		[
			'number',
			"={{ $fromAI('a', 'An a', 'number') }}",
			{ type: 'number', description: 'An a' },
			true,
		],
		['boolean', "={{ $fromAI('a', '', 'boolean') }}", { type: 'boolean' }, true],
		[
			'json is object-or-array typed',
			"={{ $fromAI('a', 'Data', 'json') }}",
			{
				anyOf: [
					{ type: 'object', minProperties: 1 },
					{ type: 'array', minItems: 1, items: {} },
				],
				description: 'Data',
			},
			true,
		],
		[
			'json with null default',
			"={{ $fromAI('a', '', 'json', null) }}",
			{
				anyOf: [
					{ type: 'object', minProperties: 1 },
					{ type: 'array', minItems: 1, items: {} },
					{ type: 'null' },
				],
				default: null,
			},
			false,
		],
		[
			'default makes it optional',
			"={{ $fromAI('a', 'An a', 'number', 3) }}",
			{ type: 'number', description: 'An a', default: 3 },
			false,
		],
		[
			'object default',
			"={{ $fromAI('a', '', 'json', {b: [1]}) }}",
			{
				anyOf: [
					{ type: 'object', minProperties: 1 },
					{ type: 'array', minItems: 1, items: {} },
				],
				default: { b: [1] },
			},
			false,
		],
	])('%s', (_name, value, property, required) => {
		const { jsonSchema } = schemaOf({ value });
		expect(jsonSchema).toEqual({
			$schema: 'http://json-schema.org/draft-07/schema#',
			type: 'object',
			properties: { a: property },
			additionalProperties: false,
			...(required ? { required: ['a'] } : {}),
		});
	});

	test('properties in order of first use; required lists only keys without default', () => {
		const { jsonSchema } = schemaOf({
			x: "={{ $fromAI('b', '', 'string', 'd') }} {{ $fromAI('a') }}",
			y: "={{ $fromAI('c', '', 'number') }}",
		});
		expect(Object.keys(jsonSchema.properties)).toEqual(['b', 'a', 'c']);
		expect(jsonSchema.required).toEqual(['a', 'c']);
	});

	test('no markers: an empty object schema', () => {
		expect(buildToolSchema([]).jsonSchema).toEqual({
			$schema: 'http://json-schema.org/draft-07/schema#',
			type: 'object',
			properties: {},
			additionalProperties: false,
		});
	});
});

describe('buildToolSchema: Zod', () => {
	const { zod } = schemaOf({
		s: "={{ $fromAI('s', 'S') }}",
		n: "={{ $fromAI('n', '', 'number', 5) }}",
		b: "={{ $fromAI('b', '', 'boolean') }}",
		j: "={{ $fromAI('j', '', 'json') }}",
		o: "={{ $fromAI('o', '', 'json', {k: [1]}) }}",
	});

	test.each([
		['all given', { s: 'x', n: 1, b: true, j: { a: 1 }, o: [1] }, true],
		['defaults fill in', { s: 'x', b: false, j: [1] }, true],
		['missing required', { n: 1, b: true, j: [1] }, false],
		['number as string is refused', { s: 'x', n: '5', b: true, j: [1] }, false],
		['empty json object refused', { s: 'x', b: true, j: {} }, false],
		['empty json array refused', { s: 'x', b: true, j: [] }, false],
		['json string refused', { s: 'x', b: true, j: '{"a":1}' }, false],
	])('%s', (_name, input, ok) => {
		expect(zod.safeParse(input).success).toBe(ok);
	});

	test('defaults are applied and are fresh copies', () => {
		const first = zod.parse({ s: 'x', b: false, j: [1] }) as { n: number; o: { k: number[] } };
		expect(first.n).toBe(5);
		expect(first.o).toEqual({ k: [1] });
		first.o.k.push(2);
		expect((zod.parse({ s: 'x', b: false, j: [1] }) as { o: unknown }).o).toEqual({ k: [1] });
	});

	test('descriptions are carried (LangChain conversion sees them, with a type for json)', () => {
		const converted = toJsonSchema(zod) as {
			properties: Record<string, Record<string, unknown>>;
			required: string[];
		};
		expect(converted.properties.s.description).toBe('S');
		expect(converted.required).toEqual(['s', 'b', 'j']);
		expect(JSON.stringify(converted.properties.j)).toContain('"type":"object"');
		expect(JSON.stringify(converted)).not.toContain('$ref');
	});
});

describe('buildToolSchema: duplicate keys', () => {
	test.each([
		[
			'same everything',
			["={{ $fromAI('a', 'd', 'number', 1) }}", "={{ $fromAI('a', 'd', 'number', 1) }}"],
			{ type: 'number', description: 'd', default: 1 },
		],
		[
			'one description absent',
			["={{ $fromAI('a') }}", "={{ $fromAI('a', 'd') }}"],
			{ type: 'string', description: 'd' },
		],
		[
			'one default absent',
			["={{ $fromAI('a', 'd', 'number', 2) }}", "={{ $fromAI('a', 'd', 'number') }}"],
			{ type: 'number', description: 'd', default: 2 },
		],
		[
			'equal object defaults',
			[
				"={{ $fromAI('a', '', 'json', {x: 1, y: 2}) }}",
				"={{ $fromAI('a', '', 'json', '{\"y\": 2, \"x\": 1}') }}",
			],
			{ anyOf: expect.any(Array), default: { x: 1, y: 2 } },
		],
	])('merge: %s', (_name, values, property) => {
		const { jsonSchema, parameters } = schemaOf({ list: values });
		expect(jsonSchema.properties.a).toEqual(property);
		expect(parameters[0].paths).toEqual(['list[0]', 'list[1]']);
	});

	test.each([
		[
			'types',
			["={{ $fromAI('a', 'd', 'string') }}", "={{ $fromAI('a', 'd', 'number') }}"],
			/different types \('string' and 'number'\)/,
		],
		[
			'descriptions',
			["={{ $fromAI('a', 'x') }}", "={{ $fromAI('a', 'y') }}"],
			/different descriptions \("x" and "y"\)/,
		],
		[
			"'' and a description",
			["={{ $fromAI('a', '') }}", "={{ $fromAI('a', 'y') }}"],
			/different descriptions/,
		],
		[
			'defaults (n8n: last wins silently)',
			["={{ $fromAI('a', '', 'number', 1) }}", "={{ $fromAI('a', '', 'number', 2) }}"],
			/different defaults \(1 and 2\)/,
		],
	])('conflict: %s, naming both paths', (_name, values, message) => {
		const { markers } = collectFromAIMarkers({ first: values[0], options: { second: values[1] } });
		let caught: unknown;
		try {
			buildToolSchema(markers, { nodeName: 'Mailer' });
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(FromAIKeyConflictError);
		const error = caught as FromAIKeyConflictError;
		expect(error.code).toBe('FROM_AI_KEY_CONFLICT');
		expect(error.paths).toEqual(['first', 'options.second']);
		expect(error.message).toMatch(
			/^Node 'Mailer', parameter 'options.second', position 4: Key 'a' is used at 'first' and at 'options.second'/,
		);
		expect(error.message).toMatch(message);
	});

	test('mergeFromAIMarkers reports every conflict', () => {
		const { markers } = collectFromAIMarkers({
			a: "={{ $fromAI('a', 'x') }} {{ $fromAI('b', '', 'number') }}",
			b: "={{ $fromAI('a', 'y') }} {{ $fromAI('b', '', 'boolean') }}",
		});
		expect(
			mergeFromAIMarkers(markers).errors.map((error) => (error as FromAIKeyConflictError).key),
		).toEqual(['a', 'b']);
	});
});

describe('buildToolSchema agrees with n8n (getSchema) where n8n is right', () => {
	test.each([
		{
			a: "={{ $fromAI('to', 'Recipient') }}",
			b: "={{ $fromAI('count', 'How many', 'number') }}",
			c: "={{ $fromAI('on', '', 'boolean', true) }}",
		},
		{
			list: ["={{ $fromAI('q', 'Query') }}", "={{ $fromAI('q', 'Query') }}"],
			n: "={{ $fromAI('limit', 'Max', 'number', 10) }}",
		},
	])('same keys, types, descriptions, defaults and required: %#', (parameters) => {
		const theirs = toJsonSchema(getSchema({ name: 'n', parameters })) as {
			properties: Record<string, Record<string, unknown>>;
			required?: string[];
		};
		const ours = schemaOf(parameters).jsonSchema;
		expect(Object.keys(ours.properties)).toEqual(Object.keys(theirs.properties));
		for (const [key, property] of Object.entries(ours.properties)) {
			expect(property.type).toBe(theirs.properties[key].type);
			expect(property.description).toBe(theirs.properties[key].description);
			expect(property.default).toEqual(theirs.properties[key].default);
		}
		expect(ours.required ?? []).toEqual(theirs.required ?? []);
	});
});
