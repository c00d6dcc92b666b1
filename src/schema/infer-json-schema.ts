import type { JsonSchema } from './json-schema';
import { JsonSchemaError } from '../errors/json-schema-error';
import { childPointer } from './json-schema-parts';

type Kind = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** What the examples seen at one spot allow: one entry per kind of value seen. */
interface Shape {
	kinds: Set<Kind>;
	/** Object kind: each property's shape and in how many of the objects it appeared. */
	properties: Map<string, { shape: Shape; count: number }>;
	objectCount: number;
	/** Array kind: the merged shape of every element of every array seen. */
	items?: Shape;
}

/** What `null` alone says: "may be null", of an unknown type — so any scalar or null. */
const NULL_ONLY_TYPES = ['string', 'number', 'boolean', 'null'];

/**
 * A draft-07 JSON Schema that the example satisfies, for output format `json` given an
 * example instead of a schema. Objects: every key is a required property and no other keys
 * are allowed. Arrays: `items` merges ALL elements — a key missing from some element objects
 * is optional, a value that is sometimes null is nullable, integer and non-integer numbers
 * make `number`, different kinds make `anyOf`. Numbers: integer when whole. A `null` with
 * nothing else seen at that spot allows any scalar or null (its type is unknown). An empty
 * array allows any items.
 *
 * @throws {JsonSchemaError} `INVALID_JSON_EXAMPLE` for a value that is not JSON (undefined,
 * a function, a non-finite number, a bigint, a cycle), naming its JSON pointer.
 */
export function inferJsonSchemaFromExample(example: unknown): JsonSchema {
	return toSchema(shapeOf(example, '', new Set()));
}

function emptyShape(): Shape {
	return { kinds: new Set(), properties: new Map(), objectCount: 0 };
}

function shapeOf(value: unknown, pointer: string, ancestors: Set<object>): Shape {
	const shape = emptyShape();
	addValue(shape, value, pointer, ancestors);
	return shape;
}

function addValue(shape: Shape, value: unknown, pointer: string, ancestors: Set<object>): void {
	const at = pointer === '' ? '/' : pointer;
	if (value === null) shape.kinds.add('null');
	else if (typeof value === 'boolean') shape.kinds.add('boolean');
	else if (typeof value === 'string') shape.kinds.add('string');
	else if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw invalid(at, `${value} is not a JSON number`);
		shape.kinds.add(Number.isInteger(value) ? 'integer' : 'number');
	} else if (Array.isArray(value)) {
		enter(value, at, ancestors);
		shape.kinds.add('array');
		shape.items ??= emptyShape();
		value.forEach((element, index) =>
			addValue(shape.items as Shape, element, childPointer(pointer, index), ancestors),
		);
		ancestors.delete(value);
	} else if (
		typeof value === 'object' &&
		Object.getPrototypeOf(value) !== null &&
		Object.getPrototypeOf(value) !== Object.prototype
	) {
		throw invalid(at, `a ${(value as object).constructor?.name ?? 'non-plain'} object is not JSON`);
	} else if (typeof value === 'object') {
		enter(value as object, at, ancestors);
		shape.kinds.add('object');
		shape.objectCount++;
		for (const [key, property] of Object.entries(value as Record<string, unknown>)) {
			if (property === undefined) continue; // JSON.stringify drops it too
			let entry = shape.properties.get(key);
			if (!entry) shape.properties.set(key, (entry = { shape: emptyShape(), count: 0 }));
			entry.count++;
			addValue(entry.shape, property, childPointer(pointer, key), ancestors);
		}
		ancestors.delete(value as object);
	} else throw invalid(at, `${typeof value} is not a JSON value`);
}

function enter(value: object, at: string, ancestors: Set<object>): void {
	if (ancestors.has(value)) throw invalid(at, 'the value contains itself (a cycle)');
	ancestors.add(value);
}

function invalid(at: string, problem: string): JsonSchemaError {
	const detail = `${at}: ${problem}`;
	return new JsonSchemaError(
		'INVALID_JSON_EXAMPLE',
		`Cannot infer a JSON Schema from this example: ${detail}. Allowed: plain JSON (objects, arrays, strings, finite numbers, booleans, null).`,
		[detail],
	);
}

function toSchema(shape: Shape): JsonSchema {
	const kinds = new Set(shape.kinds);
	if (kinds.has('integer') && kinds.has('number')) kinds.delete('integer');
	const nullable = kinds.delete('null');
	if (kinds.size === 0) return nullable ? { type: [...NULL_ONLY_TYPES] } : {};
	const branches = [...kinds].map((kind) => schemaForKind(kind, shape));
	const structured = kinds.has('object') || kinds.has('array');
	if (branches.length === 1) {
		const [only] = branches;
		if (nullable) only.type = [only.type as string, 'null'];
		return only;
	}
	if (!structured) return { type: nullable ? [...kinds, 'null'] : [...kinds] };
	return { anyOf: nullable ? [...branches, { type: 'null' }] : branches };
}

function schemaForKind(kind: Kind, shape: Shape): JsonSchema {
	if (kind === 'array') return { type: 'array', items: shape.items ? toSchema(shape.items) : {} };
	if (kind !== 'object') return { type: kind };
	// Own keys only, whatever the example's keys (a key named `__proto__` stays a property).
	const properties: Record<string, JsonSchema> = Object.fromEntries(
		[...shape.properties].map(([key, entry]) => [key, toSchema(entry.shape)]),
	);
	const required = [...shape.properties]
		.filter(([, entry]) => entry.count === shape.objectCount)
		.map(([key]) => key);
	const schema: JsonSchema = { type: 'object', properties };
	if (required.length > 0) schema.required = required;
	schema.additionalProperties = false;
	return schema;
}
