import type { JsonSchema } from './json-schema';
import { mapSubschemas, typesOf, withObjectRoot } from './json-schema-parts';

/**
 * A tool schema for OpenAI function calling (best effort, not strict): the root is an
 * object, and an array without `items` gets `items: {}` (OpenAI rejects "array schema
 * missing items"). Changes `schema` in place (shapeToolSchema passes its own copy).
 */
export function shapeForOpenAI(schema: JsonSchema): JsonSchema {
	return withObjectRoot(addMissingItems(schema, ''));
}

function addMissingItems(schema: JsonSchema, pointer: string): JsonSchema {
	const node = mapSubschemas(schema, pointer, (subschema, at) =>
		typeof subschema === 'boolean' ? subschema : addMissingItems(subschema, at),
	);
	if (typesOf(node).includes('array') && node.items === undefined) node.items = {};
	return node;
}
