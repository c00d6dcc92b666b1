import type { JsonSchema } from '../../schema/json-schema';
import { AgentConfigurationError } from '../../errors/agent-configuration-error';
import { inferJsonSchemaFromExample } from '../../schema/infer-json-schema';
import { parseJsonOption } from '../parse-json-option';

/**
 * The JSON Schema for output format `json` from a node option: a JSON Schema, or an
 * example value (`from: 'example'`) to infer one from (every key required). Text is parsed
 * as JSON; an object is taken as is; empty gives no schema (any JSON object).
 *
 * @throws {AgentConfigurationError} when the text is not JSON, a schema is not an object,
 * or the example is not plain JSON.
 */
export function resolveOutputSchema(
	value: unknown,
	from: 'schema' | 'example',
): JsonSchema | undefined {
	const parsed = parseJsonOption(
		value,
		(_problem, error) =>
			new AgentConfigurationError(
				from === 'schema' ? 'outputSchema' : 'outputExample',
				`The output ${from === 'schema' ? 'JSON Schema' : 'example'} is not JSON: ${(error as Error).message}. Example: ${from === 'schema' ? '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}' : '{"city":"Paris","population":2100000}'}`,
				{ cause: error },
			),
	);
	if (parsed === undefined) return undefined;
	if (from === 'example') {
		try {
			return inferJsonSchemaFromExample(parsed);
		} catch (error) {
			throw new AgentConfigurationError('outputExample', (error as Error).message, {
				cause: error,
			});
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new AgentConfigurationError(
			'outputSchema',
			`The output JSON Schema must be an object such as {"type":"object","properties":{…}}; found ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
		);
	}
	return parsed as JsonSchema;
}
