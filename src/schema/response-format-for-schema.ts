import type { JsonSchema } from './json-schema';
import { shapeToolSchema } from './shape-tool-schema';
import { strictSchemaProblems } from './shape-for-openai-strict';
import { toolNameFromNodeName } from './tool-name-from-node-name';

/** The OpenAI / OpenRouter `response_format` body piece for structured output. */
export interface JsonSchemaResponseFormat {
	type: 'json_schema';
	json_schema: { name: string; strict: boolean; schema: JsonSchema; description?: string };
}

/** Options of {@link responseFormatForSchema}. */
export interface ResponseFormatOptions {
	/** Sent as `json_schema.description` (helps the model; optional). */
	description?: string;
	/** `false` never asks for strict mode; by default strict is used whenever the schema allows it. */
	strict?: boolean;
}

/**
 * `response_format: { type: 'json_schema', json_schema: { name, strict, schema } }` for a
 * final answer constrained to `schema`. Strict when the schema has a strict form (see
 * `strictSchemaProblems`): then optional properties come back as `null` — validate the answer
 * against the schema that was SENT (`json_schema.schema`), or drop those nulls before checking
 * the canonical one. Otherwise `strict: false` with the schema shaped for plain OpenAI.
 * `name` is made safe for OpenAI's `^[a-zA-Z0-9_-]{1,64}$` (`final answer` → `final_answer`).
 */
export function responseFormatForSchema(
	schema: JsonSchema,
	name: string,
	options: ResponseFormatOptions = {},
): JsonSchemaResponseFormat {
	const strict = options.strict !== false && strictSchemaProblems(schema).length === 0;
	const shaped = shapeToolSchema(schema, { family: strict ? 'openai-strict' : 'openai' });
	const format: JsonSchemaResponseFormat = {
		type: 'json_schema',
		json_schema: { name: toolNameFromNodeName(name), strict, schema: shaped },
	};
	if (options.description) format.json_schema.description = options.description;
	return format;
}
