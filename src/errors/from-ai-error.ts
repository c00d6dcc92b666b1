import { ToolbridgeError } from './toolbridge-error';

/** Stable codes of the `$fromAI` compiler (scanner, argument rules, schema, description). */
export type FromAIErrorCode =
	| 'FROM_AI_WRONG_CASE'
	| 'FROM_AI_NOT_CALLED'
	| 'FROM_AI_UNCLOSED_CALL'
	| 'FROM_AI_SYNTAX'
	| 'FROM_AI_MISSING_KEY'
	| 'FROM_AI_KEY_NOT_LITERAL'
	| 'FROM_AI_INVALID_KEY'
	| 'FROM_AI_RESERVED_KEY'
	| 'FROM_AI_DESCRIPTION_NOT_LITERAL'
	| 'FROM_AI_TYPE_NOT_LITERAL'
	| 'FROM_AI_INVALID_TYPE'
	| 'FROM_AI_DEFAULT_NOT_LITERAL'
	| 'FROM_AI_INVALID_DEFAULT'
	| 'FROM_AI_TOO_MANY_ARGUMENTS'
	| 'FROM_AI_KEY_CONFLICT'
	| 'FROM_AI_UNRESOLVED_DESCRIPTION';

/** Where a `$fromAI` problem is: node, parameter path and character position in the value. */
export interface FromAIErrorLocation {
	/** Character position in the parameter value (like jsep's `error.index`). */
	index?: number;
	/** Parameter path, e.g. `options.fields[0].value`. */
	path?: string;
	/** Name of the node whose parameters were scanned. */
	nodeName?: string;
}

/**
 * A `$fromAI(...)` call that cannot become a tool parameter. `detail` says what was found
 * and what is allowed; `message` prefixes it with the location ("Node 'X', parameter
 * 'a.b[0]', position 17: …") so a CLI or the n8n UI can point at the exact spot.
 */
export class FromAIError extends ToolbridgeError {
	/** The problem without its location. */
	readonly detail: string;
	index?: number;
	path?: string;
	nodeName?: string;

	constructor(
		code: FromAIErrorCode,
		detail: string,
		location: FromAIErrorLocation = {},
		options?: { cause?: unknown },
	) {
		super(code, formatFromAIMessage(detail, location), options);
		this.name = 'FromAIError';
		this.detail = detail;
		this.index = location.index;
		this.path = location.path;
		this.nodeName = location.nodeName;
	}

	/**
	 * Adds location fields that were not known where the error was raised (the scanner
	 * knows the position, the parameter walk knows the path and node) and rewrites `message`.
	 * Fields already set are kept.
	 */
	locate(location: FromAIErrorLocation): this {
		this.index ??= location.index;
		this.path ??= location.path;
		this.nodeName ??= location.nodeName;
		this.message = formatFromAIMessage(this.detail, this);
		return this;
	}
}

/**
 * Two `$fromAI` calls use the same key in incompatible ways (different types, different
 * non-empty descriptions or different defaults). `paths` names both places.
 */
export class FromAIKeyConflictError extends FromAIError {
	readonly key: string;
	readonly paths: readonly [string, string];

	constructor(
		key: string,
		paths: readonly [string, string],
		detail: string,
		location: FromAIErrorLocation = {},
	) {
		super('FROM_AI_KEY_CONFLICT', detail, location);
		this.name = 'FromAIKeyConflictError';
		this.key = key;
		this.paths = paths;
	}
}

function formatFromAIMessage(detail: string, location: FromAIErrorLocation): string {
	const parts: string[] = [];
	if (location.nodeName !== undefined) parts.push(`Node '${location.nodeName}'`);
	if (location.path !== undefined && location.path !== '')
		parts.push(`parameter '${location.path}'`);
	if (location.index !== undefined) parts.push(`position ${location.index}`);
	return parts.length === 0 ? detail : `${parts.join(', ')}: ${detail}`;
}
