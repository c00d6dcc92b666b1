import type { JsonSchema } from './json-schema';
import { cloneJson } from './json-schema-parts';
import { modelFamilies, type ModelFamily } from './model-family';

/** Where a tool schema is going. */
export interface SchemaTarget {
	family: ModelFamily;
}

/**
 * The canonical tool schema (as `buildToolSchema` emits it, or any draft-07 object schema)
 * shaped for one model family. Pure: the input is never changed, the result shares nothing
 * with it. Every family loses `$schema` (meaningless for a tool's arguments, rejected by
 * Gemini and by some OpenAI-compatible servers); then the family's row in `modelFamilies`
 * shapes it: `generic` nothing else; `openai` `shapeForOpenAI` (object root, arrays get
 * `items`); `openai-strict` `shapeForOpenAIStrict` (all properties required, optional →
 * nullable, no `default`, `additionalProperties: false` everywhere); `anthropic`
 * `shapeForAnthropic` (object root without `anyOf`/`oneOf`/`allOf`); `google` `shapeForGemini`
 * (OpenAPI 3.0 subset, `nullable`, JSON text for free-form values). An unknown family is
 * `generic`.
 *
 * @throws {JsonSchemaError} `SCHEMA_NOT_STRICT_COMPATIBLE` for `openai-strict` when a part
 * has no strict form (check first with `strictSchemaProblems`).
 */
export function shapeToolSchema(schema: JsonSchema, target: SchemaTarget): JsonSchema {
	const copy = cloneJson(schema);
	delete copy.$schema;
	const family = Object.hasOwn(modelFamilies, target.family) ? target.family : 'generic';
	return modelFamilies[family].shapeSchema(copy);
}
