import type { JsonSchema } from '../../../schema/json-schema';

/** One way a value breaks a JSON Schema: where, what was expected, what came. */
export interface SchemaProblem {
	/** A path such as `count`, `address.city` or `tags[2]`; `(arguments)` for the whole object. */
	field: string;
	expected: string;
	received: string;
}

const root = '(arguments)';

/**
 * Checks a value against a JSON Schema, for the subset models are given: `type` (one or
 * several), `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`,
 * `anyOf` / `oneOf` (as "one of these"), min/max length, items, properties and bounds.
 * Other keywords are ignored. Strict: `"5"` is not a number. Never throws; an empty list
 * means the value is valid.
 */
export function validateJsonSchema(value: unknown, schema: JsonSchema): SchemaProblem[] {
	const problems: SchemaProblem[] = [];
	check(value, schema, root, problems);
	return problems;
}

/** One line per problem, e.g. `"count": expected a number, received the string "5"`. */
export function describeSchemaProblem(problem: SchemaProblem): string {
	return `"${problem.field}": expected ${problem.expected}, received ${problem.received}`;
}

function check(value: unknown, schema: JsonSchema, path: string, problems: SchemaProblem[]): void {
	if (typeof schema !== 'object' || schema === null) return;
	const branches = schema.anyOf ?? schema.oneOf;
	if (Array.isArray(branches) && branches.length > 0) {
		const fits = branches.some((branch) => validateAt(value, branch, path).length === 0);
		if (!fits) problems.push({ field: path, expected: branches.map(expectedOf).join(' or '), received: describeValue(value) });
		return;
	}
	if (schema.type !== undefined) {
		const types = Array.isArray(schema.type) ? schema.type : [schema.type];
		if (!types.some((type) => hasType(value, type))) {
			problems.push({ field: path, expected: expectedOf(schema), received: describeValue(value) });
			return;
		}
	}
	if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => sameJson(allowed, value))) {
		problems.push({ field: path, expected: `one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}`, received: describeValue(value) });
		return;
	}
	if ('const' in schema && !sameJson(schema.const, value)) {
		problems.push({ field: path, expected: JSON.stringify(schema.const), received: describeValue(value) });
		return;
	}
	if (typeof value === 'string') checkBounds(value.length, schema.minLength, schema.maxLength, 'characters', path, problems);
	if (typeof value === 'number') checkBounds(value, schema.minimum, schema.maximum, '', path, problems);
	if (Array.isArray(value)) {
		checkBounds(value.length, schema.minItems, schema.maxItems, 'items', path, problems);
		if (schema.items && !Array.isArray(schema.items)) {
			value.forEach((item, index) => check(item, schema.items as JsonSchema, `${path === root ? '' : path}[${index}]`, problems));
		}
	}
	if (isPlainObject(value)) checkObject(value, schema, path, problems);
}

function checkObject(value: Record<string, unknown>, schema: JsonSchema, path: string, problems: SchemaProblem[]): void {
	const properties = schema.properties ?? {};
	const child = (key: string): string => (path === root ? key : `${path}.${key}`);
	checkBounds(Object.keys(value).length, schema.minProperties, schema.maxProperties, 'properties', path, problems);
	for (const key of schema.required ?? []) {
		if (value[key] === undefined) problems.push({ field: child(key), expected: `${expectedOf(properties[key] ?? {})} (required)`, received: 'nothing' });
	}
	for (const [key, entry] of Object.entries(value)) {
		if (entry === undefined) continue;
		const property = properties[key];
		if (property) check(entry, property, child(key), problems);
		else if (schema.additionalProperties === false) {
			const known = Object.keys(properties);
			problems.push({ field: child(key), expected: known.length > 0 ? `no such argument (known: ${known.join(', ')})` : 'no arguments', received: describeValue(entry) });
		} else if (typeof schema.additionalProperties === 'object') check(entry, schema.additionalProperties, child(key), problems);
	}
}

function checkBounds(size: number, minimum: unknown, maximum: unknown, unit: string, path: string, problems: SchemaProblem[]): void {
	const suffix = unit ? ` ${unit}` : '';
	if (typeof minimum === 'number' && size < minimum) problems.push({ field: path, expected: `at least ${minimum}${suffix}`, received: `${size}${suffix}` });
	if (typeof maximum === 'number' && size > maximum) problems.push({ field: path, expected: `at most ${maximum}${suffix}`, received: `${size}${suffix}` });
}

function validateAt(value: unknown, schema: JsonSchema, path: string): SchemaProblem[] {
	const problems: SchemaProblem[] = [];
	check(value, schema, path, problems);
	return problems;
}

function hasType(value: unknown, type: string): boolean {
	switch (type) {
		case 'string':
			return typeof value === 'string';
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'null':
			return value === null;
		case 'array':
			return Array.isArray(value);
		case 'object':
			return isPlainObject(value);
		default:
			return true;
	}
}

function expectedOf(schema: JsonSchema): string {
	if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}`;
	const branches = schema.anyOf ?? schema.oneOf;
	if (Array.isArray(branches) && branches.length > 0) return branches.map(expectedOf).join(' or ');
	const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
	if (types.length === 0) return 'any value';
	const named = types.map((type) => (type === 'object' || type === 'array' || type === 'integer' ? `an ${type}` : type === 'null' ? 'null' : `a ${type}`));
	const qualifier = schema.minProperties === 1 ? ' (non-empty)' : schema.minItems === 1 ? ' (non-empty)' : '';
	return `${named.join(' or ')}${qualifier}`;
}

function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
	if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
	if (typeof value === 'object') return Object.keys(value).length === 0 ? 'an empty object' : 'an object';
	return `the ${typeof value} ${String(value)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(left: unknown, right: unknown): boolean {
	return JSON.stringify(left) === JSON.stringify(right);
}
