import { describe, expect, test } from 'vitest';
import type { JsonSchema } from '../../src/schema/json-schema';
import { JsonSchemaError } from '../../src/errors/json-schema-error';
import { collectFromAIMarkers } from '../../src/from-ai/collect-from-ai-markers';
import { buildToolSchema, type ToolSchema } from '../../src/schema/build-tool-schema';
import { modelFamilyFromModelId } from '../../src/schema/model-family';
import { strictSchemaProblems } from '../../src/schema/shape-for-openai-strict';
import { shapeToolSchema } from '../../src/schema/shape-tool-schema';
import { validateJson } from '../../src/schema/validate-json';
import { coerceArguments } from '../../src/tools/coerce-arguments';

/**
 * Real compiler schemas: `$fromAI` markers of every type, with and without defaults, each
 * with arguments a model could send (valid against the canonical schema).
 */
const compilerCases: [
	name: string,
	parameters: Record<string, string>,
	args: Record<string, unknown>,
][] = [
	['no parameters', {}, {}],
	['string', { a: "={{ $fromAI('text', 'The text') }}" }, { text: 'hi' }],
	[
		'number and boolean',
		{
			a: "={{ $fromAI('count', 'How many', 'number') }}",
			b: "={{ $fromAI('dry', '', 'boolean') }}",
		},
		{ count: 2.5, dry: true },
	],
	[
		'json object',
		{ a: "={{ $fromAI('record', 'Fields to write', 'json') }}" },
		{ record: { name: 'Ada', tags: ['x'] } },
	],
	['json array', { a: "={{ $fromAI('rows', 'Rows', 'json') }}" }, { rows: [{ id: 1 }, { id: 2 }] }],
	[
		'every type with defaults',
		{
			a: "={{ $fromAI('mode', 'Mode', 'string', 'fast') }}",
			b: "={{ $fromAI('limit', 'Limit', 'number', 10) }}",
			c: "={{ $fromAI('verbose', 'Verbose', 'boolean', false) }}",
			d: "={{ $fromAI('options', 'Options', 'json', {retry: [1, 2]}) }}",
			e: "={{ $fromAI('extra', '', 'json', null) }}",
		},
		{ mode: 'slow' },
	],
	[
		'required beside optional, scalars only',
		{
			a: "={{ $fromAI('to', 'Recipient') }} {{ $fromAI('subject', 'Subject', 'string', 'Hello') }}",
			b: "={{ $fromAI('priority', 'Priority', 'number', 1) }}",
		},
		{ to: 'a@b.c', priority: 3 },
	],
];

const compiled = compilerCases.map(([name, parameters, args]) => {
	const { markers, errors } = collectFromAIMarkers(parameters, { nodeName: 'Node' });
	expect(errors).toEqual([]);
	return { name, tool: buildToolSchema(markers, { nodeName: 'Node' }), args };
});

/** Shapes the canonical schema, checking it is neither changed nor shared with the result. */
function shape(
	tool: ToolSchema,
	family: Parameters<typeof shapeToolSchema>[1]['family'],
): JsonSchema {
	const canonical = tool.jsonSchema as unknown as JsonSchema;
	const before = structuredClone(canonical);
	const shaped = shapeToolSchema(canonical, { family });
	expect(canonical).toEqual(before);
	mutateEverything(shaped);
	expect(canonical).toEqual(before);
	return shapeToolSchema(canonical, { family });
}

function mutateEverything(node: unknown): void {
	if (typeof node !== 'object' || node === null) return;
	for (const value of Object.values(node)) mutateEverything(value);
	(node as Record<string, unknown>)['x-mutated'] = true;
}

/** Every schema node of a shaped schema with its JSON pointer. */
function nodes(schema: JsonSchema, pointer = ''): [string, JsonSchema][] {
	const found: [string, JsonSchema][] = [[pointer, schema]];
	for (const [name, property] of Object.entries(schema.properties ?? {}))
		found.push(...nodes(property, `${pointer}/properties/${name}`));
	if (schema.items && !Array.isArray(schema.items))
		found.push(...nodes(schema.items, `${pointer}/items`));
	(schema.anyOf ?? []).forEach((branch, index) =>
		found.push(...nodes(branch, `${pointer}/anyOf/${index}`)),
	);
	return found;
}

function withoutSchemaKeyword(schema: JsonSchema): JsonSchema {
	const { $schema: _ignored, ...rest } = schema;
	return rest;
}

const hasJsonParameter = (tool: ToolSchema) =>
	tool.parameters.some((parameter) => parameter.type === 'json');
const GEMINI_KEYS = new Set([
	'type',
	'format',
	'title',
	'description',
	'nullable',
	'enum',
	'maxItems',
	'minItems',
	'properties',
	'required',
	'minProperties',
	'maxProperties',
	'minLength',
	'maxLength',
	'pattern',
	'example',
	'anyOf',
	'propertyOrdering',
	'items',
	'minimum',
	'maximum',
]);

describe('shapeToolSchema over the compiler schemas', () => {
	test.each(compiled)('google: $name', ({ tool, args }) => {
		const shaped = shape(tool, 'google');
		expect(shaped.type).toBe('object');
		for (const [pointer, node] of nodes(shaped)) {
			for (const key of Object.keys(node))
				expect(GEMINI_KEYS.has(key), `${pointer}: ${key}`).toBe(true);
			if (node.type !== undefined)
				expect(
					typeof node.type === 'string' && node.type !== 'null',
					`${pointer}: type ${JSON.stringify(node.type)}`,
				).toBe(true);
			if (node.type === 'object' && pointer !== '')
				expect(Object.keys(node.properties ?? {}).length, pointer).toBeGreaterThan(0);
			if (node.type === 'array')
				expect(
					(node.items as JsonSchema | undefined)?.type,
					`${pointer}: items need a type`,
				).toBeDefined();
			if (typeof node.format === 'string') expect(['enum', 'date-time']).toContain(node.format);
			for (const name of node.required ?? [])
				expect(Object.keys(node.properties ?? {})).toContain(name);
		}
		// Meaning kept: same keys, same required list, defaults told in the description.
		expect(Object.keys(shaped.properties ?? {})).toEqual(
			tool.parameters.map((parameter) => parameter.key),
		);
		expect(shaped.required).toEqual(tool.jsonSchema.required);
		for (const parameter of tool.parameters) {
			const property = shaped.properties?.[parameter.key] as JsonSchema;
			if (parameter.defaultValue !== undefined)
				expect(property.description).toContain(
					`Default: ${JSON.stringify(parameter.defaultValue)}.`,
				);
			if (parameter.type === 'json')
				expect(property).toMatchObject({
					type: 'string',
					description: expect.stringContaining('as JSON text'),
				});
			if (parameter.defaultValue === null) expect(property.nullable).toBe(true);
		}
		// What a model sends for that schema becomes valid arguments after the tool's coercion.
		const sent = Object.fromEntries(
			Object.entries(args).map(([key, value]) => [
				key,
				typeof value === 'object' && value !== null ? JSON.stringify(value) : value,
			]),
		);
		expect(validateJson(sent, shaped)).toEqual({ valid: true });
		expect(
			validateJson(
				coerceArguments(sent, tool.parameters),
				tool.jsonSchema as unknown as JsonSchema,
			),
		).toEqual({ valid: true });
	});

	test.each(compiled)('openai-strict: $name', ({ tool, args }) => {
		const canonical = tool.jsonSchema as unknown as JsonSchema;
		if (hasJsonParameter(tool)) {
			// An object or array of anything has no strict form: reported per spot, never rewritten.
			const problems = strictSchemaProblems(canonical);
			for (const parameter of tool.parameters.filter((candidate) => candidate.type === 'json')) {
				expect(
					problems.some((problem) => problem.startsWith(`/properties/${parameter.key}/`)),
				).toBe(true);
			}
			expect(() => shape(tool, 'openai-strict')).toThrow(JsonSchemaError);
			expect(() => shapeToolSchema(canonical, { family: 'openai-strict' })).toThrow(
				expect.objectContaining({ code: 'SCHEMA_NOT_STRICT_COMPATIBLE', problems }),
			);
			return;
		}
		expect(strictSchemaProblems(canonical)).toEqual([]);
		const shaped = shape(tool, 'openai-strict');
		for (const [pointer, node] of nodes(shaped)) {
			expect(node.default, pointer).toBeUndefined();
			expect(node.$schema, pointer).toBeUndefined();
			if (node.type === 'object') {
				expect(node.additionalProperties, pointer).toBe(false);
				expect(node.required, pointer).toEqual(Object.keys(node.properties ?? {}));
			}
		}
		for (const parameter of tool.parameters) {
			const type = (shaped.properties?.[parameter.key] as JsonSchema).type;
			if (parameter.defaultValue === undefined) expect(type).toBe(parameter.type);
			else expect(type).toEqual([parameter.type, 'null']);
		}
		// A model under strict mode sends null for what it leaves out; coercion turns that into the default.
		const sent = Object.fromEntries(
			tool.parameters.map((parameter) => [
				parameter.key,
				parameter.key in args ? args[parameter.key] : null,
			]),
		);
		expect(validateJson(sent, shaped)).toEqual({ valid: true });
		expect(validateJson(coerceArguments(sent, tool.parameters), canonical)).toEqual({
			valid: true,
		});
	});

	test.each(compiled)('openai: $name', ({ tool, args }) => {
		const shaped = shape(tool, 'openai');
		expect(shaped).toEqual(withoutSchemaKeyword(tool.jsonSchema as unknown as JsonSchema));
		for (const [pointer, node] of nodes(shaped))
			if (node.type === 'array') expect(node.items, pointer).toBeDefined();
		expect(validateJson(args, shaped)).toEqual({ valid: true });
	});

	test.each(compiled)('anthropic: $name', ({ tool, args }) => {
		const shaped = shape(tool, 'anthropic');
		expect(shaped.type).toBe('object');
		expect(shaped).not.toHaveProperty('anyOf');
		expect(shaped).not.toHaveProperty('oneOf');
		expect(shaped).not.toHaveProperty('allOf');
		expect(shaped).toEqual(withoutSchemaKeyword(tool.jsonSchema as unknown as JsonSchema));
		expect(validateJson(args, shaped)).toEqual({ valid: true });
	});

	test.each(compiled)('generic: $name', ({ tool, args }) => {
		const shaped = shape(tool, 'generic');
		expect(shaped).toEqual(withoutSchemaKeyword(tool.jsonSchema as unknown as JsonSchema));
		expect(validateJson(args, shaped)).toEqual({ valid: true });
	});
});

describe('shapeToolSchema over hand-written schemas', () => {
	const userSchema: JsonSchema = {
		$schema: 'http://json-schema.org/draft-07/schema#',
		type: 'object',
		definitions: {
			address: {
				type: 'object',
				properties: { city: { type: 'string' } },
				required: ['city'],
				additionalProperties: false,
			},
		},
		properties: {
			email: { type: 'string', format: 'email' },
			when: { type: 'string', format: 'date-time' },
			kind: { const: 'person' },
			age: { type: ['integer', 'null'], exclusiveMinimum: 0 },
			level: { enum: [1, 2, 3] },
			home: { $ref: '#/definitions/address' },
			contact: { oneOf: [{ type: 'string' }, { type: 'null' }] },
			tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
		},
		required: ['email', 'kind', 'missing'],
		additionalProperties: false,
		anyOf: [{ required: ['email'] }, { required: ['home'] }],
	};

	test.each([
		[
			'email format moves to the description',
			'/properties/email',
			{ type: 'string', description: 'Format: email.' },
		],
		['date-time format stays', '/properties/when', { type: 'string', format: 'date-time' }],
		[
			'string const becomes a one-value enum',
			'/properties/kind',
			{ type: 'string', enum: ['person'] },
		],
		[
			'type array with null becomes nullable',
			'/properties/age',
			{ type: 'integer', nullable: true, description: 'Greater than 0.' },
		],
		[
			'number enum is told, not sent',
			'/properties/level',
			{ type: 'string', description: 'One of: 1, 2, 3.' },
		],
		[
			'$ref is inlined',
			'/properties/home',
			{ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
		],
		[
			'oneOf with a null branch collapses to nullable',
			'/properties/contact',
			{ type: 'string', nullable: true },
		],
		[
			'uniqueItems is told',
			'/properties/tags',
			{ type: 'array', items: { type: 'string' }, description: 'Items must be unique.' },
		],
	])('google: %s', (_name, pointer, expected) => {
		const shaped = shapeToolSchema(userSchema, { family: 'google' });
		const node = pointer
			.split('/')
			.slice(1)
			.reduce<unknown>((current, segment) => (current as Record<string, unknown>)[segment], shaped);
		expect(node).toEqual(expected);
		expect(shaped.required).toEqual(['email', 'kind']);
		expect(shaped).not.toHaveProperty('anyOf');
	});

	test.each([
		[
			'root anyOf is dropped',
			'anthropic',
			(shaped: JsonSchema) => expect(shaped.anyOf).toBeUndefined(),
		],
		[
			'definitions are kept',
			'anthropic',
			(shaped: JsonSchema) => expect(shaped.definitions).toEqual(userSchema.definitions),
		],
		[
			'root anyOf is kept (OpenAI accepts it when not strict)',
			'openai',
			(shaped: JsonSchema) => expect(shaped.anyOf).toEqual(userSchema.anyOf),
		],
		[
			'only $schema goes',
			'generic',
			(shaped: JsonSchema) => expect(shaped).toEqual(withoutSchemaKeyword(userSchema)),
		],
	] as const)('%s (%s)', (_name, family, check) => {
		check(shapeToolSchema(userSchema, { family }));
	});

	test.each([
		[
			'array without items gets items',
			'openai',
			{ type: 'object', properties: { list: { type: 'array' } } },
			{ type: 'object', properties: { list: { type: 'array', items: {} } } },
		],
		[
			'a root without type becomes an object',
			'anthropic',
			{ properties: { a: { type: 'string' } } },
			{ type: 'object', properties: { a: { type: 'string' } } },
		],
		[
			'a root that is not an object becomes an empty object',
			'google',
			{ type: 'string' },
			{ type: 'object', properties: {} },
		],
		[
			'a nested free-form object becomes JSON text',
			'google',
			{ type: 'object', properties: { meta: { type: 'object', description: 'Meta' } } },
			{
				type: 'object',
				properties: { meta: { type: 'string', description: 'Meta. Send an object as JSON text.' } },
			},
		],
		[
			'a recursive $ref becomes JSON text below the first level',
			'google',
			{
				type: 'object',
				properties: { tree: { $ref: '#/definitions/tree' } },
				definitions: {
					tree: {
						type: 'object',
						properties: { children: { type: 'array', items: { $ref: '#/definitions/tree' } } },
					},
				},
			},
			{
				type: 'object',
				properties: {
					tree: {
						type: 'object',
						properties: {
							children: { type: 'string', description: 'Send an array as JSON text.' },
						},
					},
				},
			},
		],
	] as const)('%s (%s)', (_name, family, schema, expected) => {
		expect(shapeToolSchema(schema as JsonSchema, { family })).toEqual(expected);
	});

	test.each([
		[
			'recursive $ref and $defs are kept, nested objects made strict',
			{
				type: 'object',
				properties: { node: { $ref: '#/$defs/node' } },
				$defs: {
					node: {
						type: 'object',
						properties: {
							children: { type: 'array', items: { $ref: '#/$defs/node' } },
							label: { type: 'string', minLength: 1 },
						},
						required: ['children'],
					},
				},
			},
			[],
		],
		[
			'free-form object',
			{ type: 'object', properties: { meta: { type: 'object' } } },
			['/properties/meta: an object without listed properties (any keys) has no strict form'],
		],
		[
			'additionalProperties schema',
			{
				type: 'object',
				properties: { a: { type: 'string' } },
				additionalProperties: { type: 'string' },
			},
			["/: extra properties ('additionalProperties') are not allowed in strict mode"],
		],
		[
			'allOf',
			{ type: 'object', properties: { a: { type: 'string', allOf: [{ minLength: 2 }] } } },
			["/properties/a: 'allOf' is not supported in strict mode"],
		],
		[
			'root union',
			{ anyOf: [{ type: 'object', properties: {}, additionalProperties: false }] },
			['/: the root must be an object schema, not a union'],
		],
	])('openai-strict: %s', (_name, schema, problems) => {
		expect(strictSchemaProblems(schema as JsonSchema)).toEqual(problems);
		if (problems.length > 0) return;
		const shaped = shapeToolSchema(schema as JsonSchema, { family: 'openai-strict' });
		expect(shaped.$defs).toMatchObject({
			node: {
				required: ['children', 'label'],
				additionalProperties: false,
				properties: {
					label: {
						type: ['string', 'null'],
						description: 'At least 1 characters. Send null if not given.',
					},
				},
			},
		});
		expect(
			validateJson({ node: { children: [{ children: [], label: null }], label: 'root' } }, shaped),
		).toEqual({ valid: true });
	});
});

describe('modelFamilyFromModelId', () => {
	test.each([
		['google/gemini-2.5-pro', 'google'],
		['google/gemini-2.0-flash-exp:free', 'google'],
		['google/gemma-3-27b-it', 'google'],
		['gemini-1.5-flash', 'google'],
		['models/gemini-1.5-pro', 'google'],
		['vertex_ai/gemini-2.0-flash', 'google'],
		['anthropic/claude-sonnet-4', 'anthropic'],
		['anthropic/claude-3.7-sonnet:thinking', 'anthropic'],
		['claude-3-5-haiku-latest', 'anthropic'],
		['bedrock/anthropic.claude-3-sonnet-20240229-v1:0', 'anthropic'],
		['openai/gpt-4o-mini', 'openai'],
		['~openai/gpt-latest', 'openai'],
		['gpt-4o', 'openai'],
		['o3-mini', 'openai'],
		['o1', 'openai'],
		['openai/gpt-oss-120b', 'openai'],
		['gpt-oss:20b', 'generic'],
		['gemma3:4b', 'generic'],
		['llama3.1:8b', 'generic'],
		['meta-llama/llama-3.3-70b-instruct', 'generic'],
		['mistralai/mistral-large', 'generic'],
		['deepseek-chat', 'generic'],
		['google/some-future-model', 'google'],
		['', 'generic'],
	])('%s → %s', (modelId, family) => {
		expect(modelFamilyFromModelId(modelId)).toBe(family);
	});

	test('answers each id on its own when calls repeat and alternate (the last answer is remembered)', () => {
		const ids = [
			'anthropic/claude-sonnet-4',
			'anthropic/claude-sonnet-4',
			'google/gemini-2.5-pro',
			'anthropic/claude-sonnet-4',
			'gpt-oss:20b',
			'gpt-oss:20b',
			'openai/gpt-4o',
		];
		expect(ids.map(modelFamilyFromModelId)).toEqual([
			'anthropic',
			'anthropic',
			'google',
			'anthropic',
			'generic',
			'generic',
			'openai',
		]);
	});
});
