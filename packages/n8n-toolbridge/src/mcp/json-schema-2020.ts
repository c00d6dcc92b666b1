import type { JsonSchema } from 'n8n-nodes-toolbridge';

/** The JSON Schema 2020-12 meta-schema URI. */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** Keywords whose value is one subschema. */
const ONE_SCHEMA = [
	'additionalProperties',
	'propertyNames',
	'contains',
	'not',
	'if',
	'then',
	'else',
	'unevaluatedItems',
	'unevaluatedProperties',
	'items',
] as const;
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;

/**
 * A draft-07 JSON Schema (what the `$fromAI` compiler writes, for the models' tool APIs) as a
 * JSON Schema 2020-12 one, for clients of MCP 2026-07-28, whose default dialect it is:
 * `$schema` names 2020-12, `definitions` becomes `$defs` (and `#/definitions/…` references
 * follow), tuple `items: […]` becomes `prefixItems` (`additionalItems` then `items`),
 * `dependencies` splits into `dependentRequired` / `dependentSchemas`. Everything else is the
 * same in both dialects. The input is not changed.
 */
export function toJsonSchema2020(schema: JsonSchema): JsonSchema {
	const converted = convert(schema) as JsonSchema;
	return { ...converted, $schema: JSON_SCHEMA_2020_12 };
}

function convert(value: unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
	const source = value as Record<string, unknown>;
	const out: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(source)) {
		if (key === '$schema') continue;
		if (key === 'definitions') {
			out.$defs = { ...(out.$defs as object | undefined), ...mapValues(entry, convert) };
		} else if (key === '$ref' && typeof entry === 'string') {
			out.$ref = entry.replace(/^#\/definitions\//, '#/$defs/');
		} else if (key === 'items' && Array.isArray(entry)) {
			out.prefixItems = entry.map(convert);
			if ('additionalItems' in source) out.items = convert(source.additionalItems);
		} else if (key === 'additionalItems') {
			// Only meaningful beside tuple `items` (handled there); alone it has no effect.
			continue;
		} else if (key === 'dependencies' && typeof entry === 'object' && entry !== null) {
			for (const [name, dependency] of Object.entries(entry)) {
				const target = Array.isArray(dependency) ? 'dependentRequired' : 'dependentSchemas';
				out[target] = {
					...(out[target] as object | undefined),
					[name]: Array.isArray(dependency) ? dependency : convert(dependency),
				};
			}
		} else if ((ONE_SCHEMA as readonly string[]).includes(key)) {
			out[key] = convert(entry);
		} else if ((SCHEMA_LIST as readonly string[]).includes(key) && Array.isArray(entry)) {
			out[key] = entry.map(convert);
		} else if ((SCHEMA_MAP as readonly string[]).includes(key)) {
			out[key] = { ...(out[key] as object | undefined), ...mapValues(entry, convert) };
		} else {
			out[key] = entry;
		}
	}
	return out;
}

function mapValues(value: unknown, map: (entry: unknown) => unknown): Record<string, unknown> {
	if (typeof value !== 'object' || value === null) return {};
	return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, map(entry)]));
}
