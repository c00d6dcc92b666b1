import { ToolbridgeError } from './toolbridge-error';

/** Stable codes of the schema helpers (shaping, inference, validation). */
export type JsonSchemaErrorCode =
	'SCHEMA_NOT_STRICT_COMPATIBLE' | 'INVALID_JSON_SCHEMA' | 'INVALID_JSON_EXAMPLE';

/**
 * A JSON Schema (or an example to infer one from) that a schema helper cannot use.
 * `problems` lists every spot found, each as `JSON pointer: what is wrong`.
 */
export class JsonSchemaError extends ToolbridgeError {
	readonly problems: string[];

	constructor(
		code: JsonSchemaErrorCode,
		message: string,
		problems: string[] = [],
		options?: { cause?: unknown },
	) {
		super(code, message, options);
		this.name = 'JsonSchemaError';
		this.problems = problems;
	}
}
