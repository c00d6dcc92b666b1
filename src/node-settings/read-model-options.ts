import { modelOptionParameters, type ModelOptionParameter } from './model-option-parameters';
import type { ModelOptionValues } from './model-option-reads';

/**
 * Reads the model options of a node's "Options" collection (as n8n hands it over: only the
 * options the user added) through the one table, `modelOptionParameters`.
 *
 * @throws {AgentConfigurationError} for more than 4 stop sequences, extra headers or provider
 * options that are not JSON objects.
 */
export function readModelOptions(options: Readonly<Record<string, unknown>>): ModelOptionValues {
	const into: ModelOptionValues = { config: {}, connection: { headers: {} } };
	for (const parameter of Object.values(modelOptionParameters) as ModelOptionParameter[]) {
		const value = options[parameter.property.name];
		if (value !== undefined) parameter.read(value, into);
	}
	return into;
}
