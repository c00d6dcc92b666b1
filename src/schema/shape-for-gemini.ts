import type { JsonSchema } from './json-schema';
import {
	appendDescription,
	formatJsonValue,
	isSchemaObject,
	resolveLocalReference,
	typesOf,
} from './json-schema-parts';

/*
 * Gemini function declarations take `parameters` as a "select subset of an OpenAPI 3.0 schema
 * object" (Gemini API / Vertex AI `Schema` reference; js-genai `types.Schema`). Any other key
 * fails the whole request with 400 "Invalid JSON payload received. Unknown name "$schema" /
 * "additionalProperties" … Cannot find field" (n8n #12109, #15553; the same error is reported
 * for `propertyNames`, `const`, `exclusiveMinimum`, `$ref`). Facts this shaper relies on:
 * - `type` is one enum value: no type arrays and no "null" type (`nullable: true` instead; a
 *   `{type:'null'}` anyOf branch is rejected as an invalid Type value).
 * - `anyOf` is accepted; `oneOf`, `allOf`, `not`, `$ref`/`$defs` are not.
 * - `format` on the Gemini Developer API: strings only `enum` and `date-time` (Firebase AI
 *   `SchemaShared.format`: anything else fails; `format: "email"` broke n8n #12109); numbers
 *   `float`/`double`, integers `int32`/`int64`.
 * - `enum` is a list of strings.
 * - `required` may only name properties of the same node (kilocode #11955).
 * - An OBJECT needs non-empty `properties` ("should be non-empty for OBJECT type", n8n #13285,
 *   #12790), and an ARRAY needs typed `items`: Gemini has no "any value" type.
 * - `default` is listed by Vertex but not accepted everywhere the OpenAI-compatible routes go;
 *   it moves into the description, like every other dropped constraint.
 */

/** Keys a Gemini `Schema` accepts; everything else is removed after conversion. */
const GEMINI_KEYS = new Set([
	'type',
	'format',
	'title',
	'description',
	'nullable',
	'enum',
	'maxItems',
	'minItems',
	'properties',
	'required',
	'minProperties',
	'maxProperties',
	'minLength',
	'maxLength',
	'pattern',
	'example',
	'anyOf',
	'propertyOrdering',
	'items',
	'minimum',
	'maximum',
]);

const GEMINI_FORMATS: Record<string, readonly string[]> = {
	string: ['enum', 'date-time'],
	number: ['float', 'double'],
	integer: ['int32', 'int64'],
};

/** How deep `$ref`s are inlined before a recursive schema becomes JSON text. */
const MAX_REFERENCE_DEPTH = 8;

interface GeminiContext {
	root: JsonSchema;
	references: string[];
}

/**
 * The schema as a Gemini function declaration accepts it (see the notes above). A part Gemini
 * cannot type — a free-form object (no properties), an array of anything, an untyped value,
 * a recursive `$ref` — becomes a string holding JSON text, described as such: the most
 * permissive form Gemini accepts. `$fromAI` json parameters take that path; the tool's
 * argument coercion (`coerceArguments`) parses JSON text back into the object or array.
 */
export function shapeForGemini(schema: JsonSchema): JsonSchema {
	const context: GeminiContext = { root: schema, references: [] };
	const shaped = convert(schema, context, true);
	if (typesOf(shaped)[0] !== 'object') return { type: 'object', properties: {} };
	shaped.properties ??= {};
	return shaped;
}

function convert(input: JsonSchema | boolean, context: GeminiContext, isRoot = false): JsonSchema {
	if (typeof input === 'boolean') return jsonText({}, 'any JSON value');
	let node: JsonSchema = { ...input };
	if (typeof node.$ref === 'string') {
		const reference = node.$ref;
		const target = resolveLocalReference(context.root, reference);
		if (
			target === undefined ||
			context.references.includes(reference) ||
			context.references.length >= MAX_REFERENCE_DEPTH
		) {
			return jsonText(node, 'a value as described');
		}
		context.references.push(reference);
		const { $ref: _ignored, ...siblings } = node;
		const resolved = convert(target, context);
		context.references.pop();
		return siblings.description ? { ...resolved, description: siblings.description } : resolved;
	}
	if (Array.isArray(node.allOf)) node = mergeAllOf(node);
	if (typesOf(node).length > 0 || isSchemaObject(node.properties)) dropConstraintOnlyBranches(node);
	if (Array.isArray(node.oneOf)) {
		node.anyOf = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...node.oneOf];
		delete node.oneOf;
	}
	moveUnsupportedIntoDescription(node);

	let nullable = node.nullable === true;
	const types = typesOf(node);
	if (types.includes('null')) nullable = true;
	const nonNullTypes = types.filter((type) => type !== 'null');
	if (Array.isArray(node.enum) && node.enum.includes(null)) {
		nullable = true;
		node.enum = node.enum.filter((value) => value !== null);
	}

	if (nonNullTypes.length > 1 && !Array.isArray(node.anyOf)) {
		node.anyOf = nonNullTypes.map((type) => pickForType(node, type));
		delete node.type;
	} else if (nonNullTypes.length === 1) node.type = nonNullTypes[0];
	else if (types.length > 0) delete node.type;

	if (Array.isArray(node.anyOf)) {
		const branches: JsonSchema[] = [];
		for (const branch of node.anyOf as (JsonSchema | boolean)[]) {
			if (isSchemaObject(branch) && typesOf(branch).length === 1 && typesOf(branch)[0] === 'null') {
				nullable = true;
				continue;
			}
			const converted = convert(branch, context);
			if (converted.nullable === true) nullable = true;
			delete converted.nullable;
			branches.push(converted);
		}
		delete node.type;
		if (branches.some(isJsonText)) return finish(jsonText(node, describeKinds(input)), nullable);
		if (branches.length === 1) {
			const description = mergeDescriptions(node.description, branches[0].description);
			return finish(
				description === undefined ? branches[0] : { ...branches[0], description },
				nullable,
			);
		}
		node.anyOf = branches;
		return finish(node, nullable);
	}

	const type = typesOf(node)[0];
	if (
		type === 'object' ||
		(type === undefined && isSchemaObject(node.properties) && !Array.isArray(node.anyOf))
	) {
		node.type = 'object';
		const properties = isSchemaObject(node.properties)
			? (node.properties as Record<string, JsonSchema | boolean>)
			: {};
		if (Object.keys(properties).length === 0 && !isRoot)
			return finish(jsonText(node, 'an object'), nullable);
		const converted: Record<string, JsonSchema> = Object.fromEntries(
			Object.entries(properties).map(([name, property]) => [name, convert(property, context)]),
		);
		node.properties = converted;
		const required = Array.isArray(node.required)
			? node.required.filter((name) => typeof name === 'string' && Object.hasOwn(converted, name))
			: [];
		if (required.length > 0) node.required = required;
		else delete node.required;
	} else if (type === 'array') {
		const items = Array.isArray(node.items) ? undefined : node.items;
		if (items === undefined) return finish(jsonText(node, 'an array'), nullable);
		const convertedItems = convert(items, context);
		if (isJsonText(convertedItems)) return finish(jsonText(node, 'an array'), nullable);
		node.items = convertedItems;
	} else if (type === undefined && !Array.isArray(node.anyOf)) {
		if (Array.isArray(node.enum) && node.enum.length > 0) node.type = 'string';
		else return finish(jsonText(node, 'any JSON value'), nullable);
	}
	convertEnum(node);
	return finish(node, nullable);
}

/** Nodes made by {@link jsonText} (and their finished copies). */
const JSON_TEXT_NODES = new WeakSet<JsonSchema>();

/** Keeps only keys Gemini knows, and `nullable` when set. */
function finish(node: JsonSchema, nullable: boolean): JsonSchema {
	const result: JsonSchema = {};
	for (const [key, value] of Object.entries(node))
		if (GEMINI_KEYS.has(key) && value !== undefined) result[key] = value;
	if (nullable) result.nullable = true;
	if (JSON_TEXT_NODES.has(node)) JSON_TEXT_NODES.add(result);
	return result;
}

/**
 * Moves what Gemini rejects but the model should still know into the description:
 * default, const, examples, exclusive bounds, multipleOf, uniqueItems, unsupported formats.
 */
function moveUnsupportedIntoDescription(node: JsonSchema): void {
	if (node.const !== undefined) {
		if (typeof node.const === 'string') node.enum = [node.const];
		else if (node.const === null) node.type = 'null';
		else {
			node.type ??=
				typeof node.const === 'number'
					? Number.isInteger(node.const)
						? 'integer'
						: 'number'
					: typeof node.const;
			appendDescription(node, `Must be ${formatJsonValue(node.const)}.`);
		}
		delete node.const;
	}
	if (node.exclusiveMinimum !== undefined)
		appendDescription(node, `Greater than ${formatJsonValue(node.exclusiveMinimum)}.`);
	if (node.exclusiveMaximum !== undefined)
		appendDescription(node, `Less than ${formatJsonValue(node.exclusiveMaximum)}.`);
	if (node.multipleOf !== undefined)
		appendDescription(node, `A multiple of ${formatJsonValue(node.multipleOf)}.`);
	if (node.uniqueItems === true) appendDescription(node, 'Items must be unique.');
	if (typeof node.format === 'string') {
		const type = typesOf(node).find((candidate) => candidate !== 'null');
		if (!(type !== undefined && GEMINI_FORMATS[type]?.includes(node.format))) {
			appendDescription(node, `Format: ${node.format}.`);
			delete node.format;
		}
	}
	if (Array.isArray(node.examples) && node.examples.length > 0)
		appendDescription(node, `Example: ${formatJsonValue(node.examples[0])}.`);
	if (node.default !== undefined)
		appendDescription(node, `Default: ${formatJsonValue(node.default)}.`);
}

/** Gemini enums are strings; other values stay as a sentence in the description. */
function convertEnum(node: JsonSchema): void {
	if (!Array.isArray(node.enum)) return;
	if (
		node.enum.length > 0 &&
		node.enum.every((value) => typeof value === 'string') &&
		typesOf(node)[0] === 'string'
	)
		return;
	appendDescription(
		node,
		`One of: ${node.enum.map((value) => formatJsonValue(value, 40)).join(', ')}.`,
	);
	delete node.enum;
}

/** A string carrying JSON text, for a part Gemini cannot type. */
function jsonText(node: JsonSchema, kinds: string): JsonSchema {
	const result: JsonSchema = { type: 'string' };
	if (typeof node.description === 'string' && node.description !== '')
		result.description = node.description;
	if (typeof node.title === 'string') result.title = node.title;
	appendDescription(result, `Send ${kinds} as JSON text.`);
	JSON_TEXT_NODES.add(result);
	return result;
}

function isJsonText(node: JsonSchema): boolean {
	return JSON_TEXT_NODES.has(node);
}

/** "an object or an array", from the kinds a node allows, for the JSON-text description. */
function describeKinds(node: JsonSchema | boolean): string {
	if (typeof node === 'boolean') return 'any JSON value';
	const kinds = new Set<string>();
	const collect = (schema: unknown): void => {
		if (!isSchemaObject(schema)) return;
		for (const type of typesOf(schema)) if (type !== 'null') kinds.add(type);
		for (const keyword of ['anyOf', 'oneOf'] as const)
			if (Array.isArray(schema[keyword])) (schema[keyword] as unknown[]).forEach(collect);
	};
	collect(node);
	if (kinds.size === 0) return 'any JSON value';
	const nonEmpty =
		isSchemaObject(node) &&
		Array.isArray(node.anyOf) &&
		(node.anyOf as unknown[]).every(
			(branch) =>
				isSchemaObject(branch) &&
				(typesOf(branch).includes('null') || branch.minProperties === 1 || branch.minItems === 1),
		);
	const list = [...kinds].join(' or ');
	return `${nonEmpty ? 'a non-empty' : /^[aeiou]/.test(list) ? 'an' : 'a'} ${list}`;
}

/** The part of a multi-type node that applies to one type, for an anyOf branch. */
function pickForType(node: JsonSchema, type: string): JsonSchema {
	const branch: JsonSchema = { type };
	const keysByType: Record<string, string[]> = {
		object: ['properties', 'required', 'minProperties', 'maxProperties', 'additionalProperties'],
		array: ['items', 'minItems', 'maxItems'],
		string: ['minLength', 'maxLength', 'pattern', 'format', 'enum'],
		number: ['minimum', 'maximum', 'format'],
		integer: ['minimum', 'maximum', 'format'],
	};
	for (const key of keysByType[type] ?? []) if (node[key] !== undefined) branch[key] = node[key];
	for (const key of [
		'properties',
		'required',
		'items',
		'minItems',
		'maxItems',
		'minProperties',
		'maxProperties',
		'minLength',
		'maxLength',
		'pattern',
		'minimum',
		'maximum',
		'format',
	])
		delete node[key];
	return branch;
}

/**
 * A typed node's `anyOf`/`oneOf` branches that only add constraints (`{ required: ['a'] }`:
 * "at least one of") cannot be expressed; they are dropped, and the tool's own validation
 * still applies them.
 */
function dropConstraintOnlyBranches(node: JsonSchema): void {
	const typing = [
		'type',
		'properties',
		'items',
		'enum',
		'const',
		'$ref',
		'anyOf',
		'oneOf',
		'allOf',
	];
	for (const keyword of ['anyOf', 'oneOf'] as const) {
		const branches = node[keyword];
		if (!Array.isArray(branches)) continue;
		const kept = branches.filter(
			(branch) => !isSchemaObject(branch) || typing.some((key) => branch[key] !== undefined),
		);
		if (kept.length === 0) delete node[keyword];
		else node[keyword] = kept;
	}
}

/** allOf: properties and required merged, other keys from the first branch that has them. */
function mergeAllOf(node: JsonSchema): JsonSchema {
	const { allOf, ...rest } = node;
	const merged: JsonSchema = { ...rest };
	for (const branch of allOf as unknown[]) {
		if (!isSchemaObject(branch)) continue;
		for (const [key, value] of Object.entries(branch)) {
			if (key === 'properties' && isSchemaObject(value))
				merged.properties = {
					...(merged.properties ?? {}),
					...(value as Record<string, JsonSchema>),
				};
			else if (key === 'required' && Array.isArray(value))
				merged.required = [...new Set([...(merged.required ?? []), ...(value as string[])])];
			else if (key === 'description' && typeof value === 'string')
				merged.description = mergeDescriptions(merged.description, value);
			else if (merged[key] === undefined) merged[key] = value;
		}
	}
	return merged;
}

function mergeDescriptions(outer: unknown, inner: unknown): string | undefined {
	const parts = [outer, inner].filter(
		(part): part is string => typeof part === 'string' && part.trim() !== '',
	);
	if (parts.length === 2 && parts[0] === parts[1]) return parts[0];
	return parts.length === 0
		? undefined
		: parts.reduce(
				(text, part) => appendDescription({ description: text }, part).description as string,
			);
}
