import { ToolbridgeError } from './toolbridge-error';

/**
 * A public function was called with an argument it cannot use: the message names the
 * function, the parameter, what was received and what is allowed.
 */
export class InvalidArgumentError extends ToolbridgeError {
	/** The function that refused it, e.g. `buildToolSchema`. */
	readonly functionName: string;
	/** The parameter at fault, e.g. `markers` or `options.prompt`. */
	readonly parameter: string;

	constructor(functionName: string, parameter: string, expected: string, received: unknown) {
		super(
			'INVALID_ARGUMENT',
			`${functionName}: "${parameter}" must be ${expected}; received ${describeValue(received)}.`,
		);
		this.name = 'InvalidArgumentError';
		this.functionName = functionName;
		this.parameter = parameter;
	}
}

/** A short, safe description of a received value (its type, and a short preview of strings). */
export function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return `an array of ${value.length}`;
	if (typeof value === 'string')
		return value.length > 40
			? `a string of ${value.length} characters`
			: `the string ${JSON.stringify(value)}`;
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'function') return 'a function';
	return `${typeof value} ${String(value)}`.replace(/^undefined undefined$/, 'undefined');
}

/** Plain object test: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Argument checks for a public function, each throwing an {@link InvalidArgumentError} that
 * names the function and the parameter.
 */
export function argumentChecks(functionName: string) {
	const fail = (parameter: string, expected: string, received: unknown): never => {
		throw new InvalidArgumentError(functionName, parameter, expected, received);
	};
	return {
		fail,
		string(value: unknown, parameter: string): string {
			return typeof value === 'string' ? value : fail(parameter, 'a string', value);
		},
		optionalString(value: unknown, parameter: string): string | undefined {
			return value === undefined || typeof value === 'string'
				? value
				: fail(parameter, 'a string when given', value);
		},
		object(value: unknown, parameter: string): Record<string, unknown> {
			return isPlainObject(value) ? value : fail(parameter, 'an object', value);
		},
		optionalObject(value: unknown, parameter: string): Record<string, unknown> | undefined {
			return value === undefined
				? undefined
				: isPlainObject(value)
					? value
					: fail(parameter, 'an object when given', value);
		},
		array(value: unknown, parameter: string): unknown[] {
			return Array.isArray(value) ? value : fail(parameter, 'an array', value);
		},
		stringOrObject(value: unknown, parameter: string): string | Record<string, unknown> {
			return typeof value === 'string' || isPlainObject(value)
				? value
				: fail(parameter, 'a file path (string) or a workflow object', value);
		},
	};
}
