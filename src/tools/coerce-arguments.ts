import type { z } from 'zod';
import type { ToolParameter } from '../schema/merge-from-ai-markers';

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** One argument the model got wrong: the field, what was expected, what came. */
export interface ArgumentProblem {
	field: string;
	expected: string;
	received: string;
	message: string;
}

/** Either the arguments to run the node with (defaults applied), or what is wrong with them. */
export type ArgumentCheck =
	{ ok: true; args: Record<string, unknown> } | { ok: false; problems: ArgumentProblem[] };

function coerceOne(value: unknown, type: ToolParameter['type']): unknown {
	switch (type) {
		case 'number':
			return typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : value;
		case 'boolean':
			if (typeof value === 'string' && /^\s*(true|false)\s*$/i.test(value))
				return value.trim().toLowerCase() === 'true';
			return value;
		case 'string':
			return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
		case 'json':
			if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
				try {
					return JSON.parse(value);
				} catch {
					return value;
				}
			}
			return value;
	}
}

/**
 * Lenient coercion where the intent is clear: `"5"` → 5 for a number, `"true"` → true for a
 * boolean, 5 → `"5"` for a string, a JSON text → the object for `json`; `null` for a field
 * with a default means "use the default". Anything else is left for validation to reject.
 *
 * Returns a copy without a prototype: a key such as `toString` or `valueOf` the model left
 * out is absent there, not `Object.prototype`'s member — zod reads properties plainly, so it
 * would otherwise validate the inherited function instead of applying the default. An own
 * `__proto__` key stays an ordinary key of the copy.
 */
export function coerceArguments(
	input: Record<string, unknown>,
	parameters: readonly ToolParameter[],
): Record<string, unknown> {
	const result: Record<string, unknown> = Object.assign(
		Object.create(null) as Record<string, unknown>,
		input,
	);
	for (const parameter of parameters) {
		if (!Object.hasOwn(result, parameter.key)) continue;
		const value = result[parameter.key];
		if (value === null && parameter.defaultValue !== undefined && parameter.defaultValue !== null)
			delete result[parameter.key];
		else result[parameter.key] = coerceOne(value, parameter.type);
	}
	return result;
}

const scalarTypes: ReadonlySet<string> = new Set(['string', 'number', 'boolean']);

/**
 * The arguments exactly as coercion then the Zod schema would give them (known keys in schema
 * order, coerced, defaults applied, other keys dropped), when every parameter is a plain
 * string, number or boolean and every value is right — the usual call, checked in one pass
 * without the copy and Zod's per-parse allocations. `undefined` sends the call to coercion
 * and Zod, which also word the problems.
 */
function validScalarArguments(
	input: Record<string, unknown>,
	parameters: readonly ToolParameter[],
): Record<string, unknown> | undefined {
	const args: Record<string, unknown> = {};
	for (const { key, type, defaultValue } of parameters) {
		if (!scalarTypes.has(type) || key === '__proto__') return undefined;
		let value = Object.hasOwn(input, key) ? input[key] : undefined;
		// `null` for a field with a default means "use the default" (as coerceArguments has it).
		if (value === null && defaultValue !== undefined && defaultValue !== null) value = undefined;
		else if (value !== undefined) value = coerceOne(value, type);
		if (value === undefined) {
			if (defaultValue === undefined || (defaultValue !== null && typeof defaultValue === 'object'))
				return undefined;
			args[key] = defaultValue;
		} else if (typeof value === type && !(type === 'number' && Number.isNaN(value))) {
			args[key] = value;
		} else return undefined;
	}
	return args;
}

function describeReceived(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string')
		return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
	return `${typeof value === 'object' ? 'an object' : `the ${typeof value} ${String(value)}`}`;
}

function expectedFor(parameter: ToolParameter | undefined): string {
	if (!parameter) return 'a known argument';
	return parameter.type === 'json' ? 'a non-empty JSON object or array' : `a ${parameter.type}`;
}

/**
 * Coerces and validates the model's arguments against the tool schema (defaults applied by
 * the schema). Never throws: problems name the field, the expected type and what came.
 */
export function checkArguments(
	input: unknown,
	schema: z.ZodTypeAny,
	parameters: readonly ToolParameter[],
): ArgumentCheck {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return {
			ok: false,
			problems: [
				{
					field: '(arguments)',
					expected: 'a JSON object',
					received: describeReceived(input),
					message: 'The arguments must be one JSON object.',
				},
			],
		};
	}
	const fast = validScalarArguments(input as Record<string, unknown>, parameters);
	if (fast) return { ok: true, args: fast };
	const coerced = coerceArguments(input as Record<string, unknown>, parameters);
	const parsed = schema.safeParse(coerced);
	if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
	const byKey = new Map(parameters.map((parameter) => [parameter.key, parameter]));
	const seen = new Set<string>();
	const problems: ArgumentProblem[] = [];
	for (const issue of parsed.error.issues) {
		const field = issue.path.length > 0 ? String(issue.path[0]) : '(arguments)';
		if (seen.has(field)) continue;
		seen.add(field);
		const value = Object.hasOwn(coerced, field) ? coerced[field] : undefined;
		const parameter = byKey.get(field);
		problems.push({
			field,
			expected: expectedFor(parameter),
			received: describeReceived(value),
			message: value === undefined && parameter ? 'This argument is required.' : issue.message,
		});
	}
	return { ok: false, problems };
}
