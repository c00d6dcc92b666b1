import { createRequire } from 'node:module';
import { ToolbridgeError } from '../errors/toolbridge-error';
import type { JsonSchema } from './json-schema';

/** The part of a zod 3 schema this package relies on (duck-typed: n8n may hold another zod copy). */
export interface ZodSchemaLike {
	_def: unknown;
	safeParse: (value: unknown) => unknown;
}

/** True for a zod schema from any copy of zod. */
export function isZodSchema(value: unknown): value is ZodSchemaLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		'_def' in value &&
		typeof (value as { safeParse?: unknown }).safeParse === 'function'
	);
}

type ToJsonSchema = (schema: unknown) => Record<string, unknown>;
let cachedConverter: ToJsonSchema | undefined;

/**
 * Converts a zod 3 schema to draft-07 JSON Schema as sent to a model (LangChain's
 * converter, the one n8n's agents use; `$schema` removed). @langchain/core is an optional
 * peer: it is loaded only when this function is first called.
 * @throws ToolbridgeError `ZOD_CONVERSION_UNAVAILABLE` when @langchain/core cannot be loaded
 * @throws ToolbridgeError `ZOD_SCHEMA_INVALID` when the value is not a zod schema
 */
export function zodToJsonSchema(schema: ZodSchemaLike): JsonSchema {
	if (!isZodSchema(schema))
		throw new ToolbridgeError(
			'ZOD_SCHEMA_INVALID',
			'zodToJsonSchema expects a zod schema (an object with _def and safeParse).',
		);
	const { $schema: _ignored, ...rest } = loadConverter()(schema);
	return rest as JsonSchema;
}

function loadConverter(): ToJsonSchema {
	if (cachedConverter) return cachedConverter;
	const requireHere = createRequire(__filename);
	let module: { toJsonSchema?: unknown };
	try {
		module = requireHere('@langchain/core/utils/json_schema') as { toJsonSchema?: unknown };
	} catch (error) {
		throw new ToolbridgeError(
			'ZOD_CONVERSION_UNAVAILABLE',
			'zodToJsonSchema needs @langchain/core (installed with n8n); it could not be loaded.',
			{ cause: error },
		);
	}
	if (typeof module.toJsonSchema === 'function') {
		cachedConverter = module.toJsonSchema as ToJsonSchema;
		return cachedConverter;
	}
	// Older @langchain/core (0.3.30 in n8n 1.85) has `utils/json_schema` without `toJsonSchema`;
	// its own dependency zod-to-json-schema is what that converter uses for zod 3 schemas.
	try {
		const requireFromCore = createRequire(requireHere.resolve('@langchain/core/utils/json_schema'));
		const { zodToJsonSchema: convert } = requireFromCore('zod-to-json-schema') as {
			zodToJsonSchema?: unknown;
		};
		if (typeof convert === 'function') {
			cachedConverter = (schema) => (convert as ToJsonSchema)(schema);
			return cachedConverter;
		}
	} catch {
		// reported below
	}
	throw new ToolbridgeError(
		'ZOD_CONVERSION_UNAVAILABLE',
		"zodToJsonSchema needs @langchain/core's `utils/json_schema` toJsonSchema (n8n 1.100 or newer) or its zod-to-json-schema dependency; the @langchain/core found here has neither.",
	);
}
