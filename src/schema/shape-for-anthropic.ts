import type { JsonSchema } from './json-schema';
import { withObjectRoot } from './json-schema-parts';

/**
 * A tool schema for Anthropic's `input_schema`: the root is `type: 'object'` and has no
 * `anyOf`/`oneOf`/`allOf` ("input_schema does not support oneOf, allOf, or anyOf at the top
 * level", anthropics/claude-code #27337); such root constraints are dropped (the tool's own
 * validation still applies them). Anything else in JSON Schema is accepted.
 */
export function shapeForAnthropic(schema: JsonSchema): JsonSchema {
	const { anyOf: _anyOf, oneOf: _oneOf, allOf: _allOf, ...rest } = schema;
	return withObjectRoot(rest);
}
