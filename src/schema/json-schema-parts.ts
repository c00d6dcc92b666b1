import type { JsonSchema } from './json-schema';

/** Keywords whose value is a map of name → subschema. */
export const SUBSCHEMA_MAP_KEYWORDS = [
	'properties',
	'patternProperties',
	'definitions',
	'$defs',
	'dependencies',
] as const;
/** Keywords whose value is a list of subschemas. */
export const SUBSCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
/** Keywords whose value is one subschema (`items` may also be a list: a tuple). */
export const SUBSCHEMA_KEYWORDS = [
	'items',
	'additionalItems',
	'additionalProperties',
	'not',
	'if',
	'then',
	'else',
	'contains',
	'propertyNames',
] as const;

/** A schema node as a plain object (`true`, `false` and non-objects are not). */
export function isSchemaObject(value: unknown): value is JsonSchema {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of a JSON value (schemas are plain JSON); primitives and `undefined` are returned as they are. */
export function cloneJson<T>(value: T): T {
	return typeof value === 'object' && value !== null
		? (JSON.parse(JSON.stringify(value)) as T)
		: value;
}

/** `/a/b` + `c/d` → `/a/b/c~1d` (RFC 6901 escaping). */
export function childPointer(pointer: string, segment: string | number): string {
	return `${pointer}/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** A short JSON rendering of a value for a description or an error message. */
export function formatJsonValue(value: unknown, maxLength = 80): string {
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}
	return text.length > maxLength ? `${text.slice(0, maxLength - 3)}...` : text;
}

/**
 * Adds a sentence to a schema's description, so a keyword a provider rejects still reaches
 * the model as text ("Default: 3."). Returns the same (already copied) node.
 */
export function appendDescription(schema: JsonSchema, note: string): JsonSchema {
	const current = typeof schema.description === 'string' ? schema.description.trim() : '';
	if (current === '') schema.description = note;
	else schema.description = /[.!?:]$/.test(current) ? `${current} ${note}` : `${current}. ${note}`;
	return schema;
}

/** The schema's types as a list (`type: 'x'` → `['x']`, absent → `[]`). */
export function typesOf(schema: JsonSchema): string[] {
	if (typeof schema.type === 'string') return [schema.type];
	if (Array.isArray(schema.type))
		return schema.type.filter((type): type is string => typeof type === 'string');
	return [];
}

/**
 * Resolves a local `$ref` (`#/definitions/x`, `#/$defs/x`, any `#/…` pointer) against the
 * root schema. Remote references resolve to undefined.
 */
export function resolveLocalReference(
	root: JsonSchema,
	reference: string,
): JsonSchema | boolean | undefined {
	if (reference === '#') return root;
	if (!reference.startsWith('#/')) return undefined;
	let node: unknown = root;
	for (const raw of reference.slice(2).split('/')) {
		const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
		if (
			typeof node !== 'object' ||
			node === null ||
			!Object.prototype.hasOwnProperty.call(node, segment)
		)
			return undefined;
		node = (node as Record<string, unknown>)[segment];
	}
	return typeof node === 'boolean' || isSchemaObject(node) ? node : undefined;
}

/**
 * Applies `transform` to every direct subschema of a node (properties, items, anyOf
 * branches, definitions …) and returns a shallow copy with the results; a transform
 * returning undefined removes that subschema.
 */
export function mapSubschemas(
	schema: JsonSchema,
	pointer: string,
	transform: (subschema: JsonSchema | boolean, pointer: string) => JsonSchema | boolean | undefined,
): JsonSchema {
	const result: JsonSchema = { ...schema };
	for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
		const map = schema[keyword];
		if (!isSchemaObject(map)) continue;
		const mapped: Array<[string, JsonSchema | boolean]> = [];
		for (const [name, subschema] of Object.entries(map)) {
			// `dependencies` may also hold a list of property names: not a schema.
			if (typeof subschema !== 'boolean' && !isSchemaObject(subschema)) {
				mapped.push([name, subschema as never]);
				continue;
			}
			const value = transform(subschema, childPointer(childPointer(pointer, keyword), name));
			if (value !== undefined) mapped.push([name, value]);
		}
		// Own keys only, whatever the names (a property named `__proto__` stays a property).
		(result as Record<string, unknown>)[keyword] = Object.fromEntries(mapped);
	}
	for (const keyword of SUBSCHEMA_LIST_KEYWORDS) {
		const list = schema[keyword];
		if (!Array.isArray(list)) continue;
		const mapped: (JsonSchema | boolean)[] = [];
		list.forEach((subschema: unknown, index) => {
			if (typeof subschema !== 'boolean' && !isSchemaObject(subschema)) return;
			const value = transform(subschema, childPointer(childPointer(pointer, keyword), index));
			if (value !== undefined) mapped.push(value);
		});
		(result as Record<string, unknown>)[keyword] = mapped;
	}
	for (const keyword of SUBSCHEMA_KEYWORDS) {
		const subschema = schema[keyword];
		if (keyword === 'items' && Array.isArray(subschema)) {
			result.items = subschema
				.map((item, index) => transform(item, childPointer(childPointer(pointer, 'items'), index)))
				.filter(isSchemaObject);
			continue;
		}
		if (typeof subschema !== 'boolean' && !isSchemaObject(subschema)) continue;
		const value = transform(subschema, childPointer(pointer, keyword));
		if (value === undefined) delete result[keyword];
		else (result as Record<string, unknown>)[keyword] = value;
	}
	return result;
}

/** The schema with an object root: a root that is not an object becomes `type: 'object'` with its properties (or none). */
export function withObjectRoot(schema: JsonSchema): JsonSchema {
	if (typesOf(schema).includes('object')) return schema;
	return {
		...schema,
		type: 'object',
		properties: isSchemaObject(schema.properties) ? schema.properties : {},
	};
}
