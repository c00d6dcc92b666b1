import type { JsonSchema } from './json-schema';
import { cloneJson, isSchemaObject, mapSubschemas, typesOf } from './json-schema-parts';
import type { ModelFamily } from './model-family';
import { shapeForGemini } from './shape-for-gemini';
import { shapeForOpenAIStrict } from './shape-for-openai-strict';

/** Where a tool schema is going. */
export interface SchemaTarget {
	family: ModelFamily;
}

/**
 * The canonical tool schema (as `buildToolSchema` emits it, or any draft-07 object schema)
 * shaped for one model family. Pure: the input is never changed, the result shares nothing
 * with it. Every family loses `$schema` (meaningless for a tool's arguments, rejected by
 * Gemini and by some OpenAI-compatible servers). Then:
 * - `generic`: nothing else (servers differ; the canonical schema is the safest guess).
 * - `openai`: the root is an object; an array without `items` gets `items: {}` (OpenAI
 *   rejects "array schema missing items").
 * - `openai-strict`: see `shapeForOpenAIStrict` (all properties required, optional →
 *   nullable, no `default`, `additionalProperties: false` everywhere).
 * - `anthropic`: the root is `type: 'object'` and has no `anyOf`/`oneOf`/`allOf` ("input_schema
 *   does not support oneOf, allOf, or anyOf at the top level", anthropics/claude-code #27337);
 *   such root constraints are dropped (the tool's own validation still applies them).
 *   Anything else in JSON Schema is accepted in `input_schema`.
 * - `google`: see `shapeForGemini` (OpenAPI 3.0 subset, `nullable`, JSON text for free-form
 *   values).
 *
 * @throws {JsonSchemaError} `SCHEMA_NOT_STRICT_COMPATIBLE` for `openai-strict` when a part
 * has no strict form (check first with `strictSchemaProblems`).
 */
export function shapeToolSchema(schema: JsonSchema, target: SchemaTarget): JsonSchema {
	const copy = cloneJson(schema);
	delete copy.$schema;
	switch (target.family) {
		case 'generic':
			return copy;
		case 'openai':
			return withObjectRoot(addMissingItems(copy, ''));
		case 'openai-strict':
			return shapeForOpenAIStrict(copy);
		case 'anthropic': {
			const { anyOf: _anyOf, oneOf: _oneOf, allOf: _allOf, ...rest } = copy;
			return withObjectRoot(rest);
		}
		case 'google':
			return shapeForGemini(copy);
		default:
			return copy;
	}
}

function withObjectRoot(schema: JsonSchema): JsonSchema {
	if (typesOf(schema).includes('object')) return schema;
	return {
		...schema,
		type: 'object',
		properties: isSchemaObject(schema.properties) ? schema.properties : {},
	};
}

function addMissingItems(schema: JsonSchema, pointer: string): JsonSchema {
	const node = mapSubschemas(schema, pointer, (subschema, at) =>
		typeof subschema === 'boolean' ? subschema : addMissingItems(subschema, at),
	);
	if (typesOf(node).includes('array') && node.items === undefined) node.items = {};
	return node;
}
