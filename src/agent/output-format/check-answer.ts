import { validateJson } from '../../schema/validate-json';
import type { StructuredOutputConfig } from './structured-output-config';

/**
 * What is wrong with an answer for output format `json`: validation errors against the
 * schema (`/age: must be integer (found "36")`), or, without a schema, that it is not a
 * JSON object. Empty when the answer is acceptable.
 * @throws {JsonSchemaError} `INVALID_JSON_SCHEMA` when the configured schema is not valid
 */
export function checkAnswer(value: unknown, config: StructuredOutputConfig): string[] {
	if (config.schema === undefined) {
		return typeof value === 'object' && value !== null && !Array.isArray(value)
			? []
			: [
					`/: must be a JSON object (found ${Array.isArray(value) ? 'an array' : JSON.stringify(value)})`,
				];
	}
	const result = validateJson(value, config.schema);
	return result.valid ? [] : result.errors;
}
