import type { JsonSchema } from './json-schema';
import { JsonSchemaError } from '../errors/json-schema-error';
import {
	appendDescription,
	childPointer,
	formatJsonValue,
	isSchemaObject,
	typesOf,
} from './json-schema-parts';

/*
 * OpenAI Structured Outputs (`strict: true` on a function or on `response_format`), per
 * OpenAI's "Structured Outputs › Supported schemas":
 * - the root is an object, not `anyOf`; every object has `additionalProperties: false` and
 *   lists EVERY property in `required` — optional is expressed as nullable (`type: [T,
 *   'null']` or an `anyOf` null branch);
 * - supported: type (with arrays), properties, required, additionalProperties, items, enum,
 *   const, anyOf, $ref with $defs/definitions (recursion allowed), description, title; string
 *   `pattern` and `format` (date-time, time, date, duration, email, hostname, ipv4, ipv6,
 *   uuid); number `minimum`/`maximum`/exclusive bounds/`multipleOf`; array `minItems`/`maxItems`;
 * - not supported: allOf, not, if/then/else, dependent*, patternProperties,
 *   unevaluatedProperties, propertyNames, min/maxProperties, min/maxLength, uniqueItems,
 *   contains, prefixItems; `default` is rejected ("'default' is not permitted",
 *   instructor #1074, dotnet/extensions #6196);
 * - every value needs a type: a free-form object or `items: {}` cannot be strict — the
 *   schema would have to change meaning, so those are reported, not rewritten.
 */

const STRICT_STRING_FORMATS = new Set([
	'date-time',
	'time',
	'date',
	'duration',
	'email',
	'hostname',
	'ipv4',
	'ipv6',
	'uuid',
]);

/** Keywords dropped with a sentence in the description (`{n}` is the keyword's value). */
const DESCRIBED_KEYWORDS: Record<string, (value: unknown) => string | undefined> = {
	default: (value) => `Default: ${formatJsonValue(value)}.`,
	minLength: (value) => `At least ${formatJsonValue(value)} characters.`,
	maxLength: (value) => `At most ${formatJsonValue(value)} characters.`,
	minProperties: (value) =>
		`At least ${formatJsonValue(value)} ${value === 1 ? 'property' : 'properties'}.`,
	maxProperties: (value) => `At most ${formatJsonValue(value)} properties.`,
	uniqueItems: (value) => (value === true ? 'Items must be unique.' : undefined),
	examples: (value) =>
		Array.isArray(value) && value.length > 0 ? `Example: ${formatJsonValue(value[0])}.` : undefined,
};

/** Keywords that only annotate or that strict mode ignores semantically: removed silently. */
const DROPPED_KEYWORDS = [
	'$schema',
	'$id',
	'$comment',
	'readOnly',
	'writeOnly',
	'deprecated',
	'contentEncoding',
	'contentMediaType',
	'nullable',
	'example',
];

/** Keywords whose loss would change what is valid: the schema cannot be strict. */
const BLOCKING_KEYWORDS = [
	'allOf',
	'not',
	'if',
	'then',
	'else',
	'dependencies',
	'dependentRequired',
	'dependentSchemas',
	'patternProperties',
	'unevaluatedProperties',
	'propertyNames',
	'contains',
	'prefixItems',
	'additionalItems',
];

interface StrictContext {
	problems: string[];
}

/**
 * Why the schema cannot be sent with `strict: true` (empty when it can): each entry is
 * `JSON pointer: what is wrong`. A caller falls back to `strict: false` with the `openai`
 * shape when this is not empty — e.g. a tool with a `$fromAI` json parameter, whose object
 * or array of anything has no strict form.
 */
export function strictSchemaProblems(schema: JsonSchema): string[] {
	const context: StrictContext = { problems: [] };
	shapeRoot(schema, context);
	return context.problems;
}

/**
 * The schema in OpenAI strict form: every property required, optional ones nullable (null
 * means "not given"; a default moves into the description and the tool applies it),
 * `additionalProperties: false` everywhere, unsupported constraints moved into descriptions
 * (the canonical schema still validates them after the call).
 *
 * @throws {JsonSchemaError} `SCHEMA_NOT_STRICT_COMPATIBLE` listing every spot that has no
 * strict form (see {@link strictSchemaProblems}).
 */
export function shapeForOpenAIStrict(schema: JsonSchema): JsonSchema {
	const context: StrictContext = { problems: [] };
	const shaped = shapeRoot(schema, context);
	if (context.problems.length > 0) {
		throw new JsonSchemaError(
			'SCHEMA_NOT_STRICT_COMPATIBLE',
			`This schema cannot be sent with strict: true: ${context.problems.join('; ')}. Allowed: typed values only (objects with listed properties, arrays with typed items); send it with strict: false instead.`,
			context.problems,
		);
	}
	return shaped;
}

function shapeRoot(schema: JsonSchema, context: StrictContext): JsonSchema {
	if (
		typesOf(schema)
			.filter((type) => type !== 'null')
			.join() !== 'object' ||
		Array.isArray(schema.anyOf) ||
		Array.isArray(schema.oneOf)
	) {
		context.problems.push('/: the root must be an object schema, not a union');
	}
	return shapeNode(schema, '', context);
}

function shapeNode(
	input: JsonSchema | boolean,
	pointer: string,
	context: StrictContext,
): JsonSchema {
	const at = pointer === '' ? '/' : pointer;
	if (typeof input === 'boolean') {
		context.problems.push(`${at}: ${input ? 'any value' : 'no value'} has no strict form`);
		return {};
	}
	const node: JsonSchema = { ...input };
	for (const keyword of BLOCKING_KEYWORDS) {
		if (node[keyword] !== undefined)
			context.problems.push(`${at}: '${keyword}' is not supported in strict mode`);
		delete node[keyword];
	}
	for (const [keyword, describe] of Object.entries(DESCRIBED_KEYWORDS)) {
		if (node[keyword] === undefined) continue;
		const note = describe(node[keyword]);
		if (note) appendDescription(node, note);
		delete node[keyword];
	}
	for (const keyword of DROPPED_KEYWORDS) delete node[keyword];
	if (typeof node.format === 'string' && !STRICT_STRING_FORMATS.has(node.format)) {
		appendDescription(node, `Format: ${node.format}.`);
		delete node.format;
	}
	if (Array.isArray(node.oneOf)) {
		// Strict mode has anyOf only; exactly-one becomes at-least-one (validation after the call still checks).
		node.anyOf = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...node.oneOf];
		delete node.oneOf;
	}
	for (const keyword of ['definitions', '$defs'] as const) {
		if (!isSchemaObject(node[keyword])) continue;
		node[keyword] = Object.fromEntries(
			Object.entries(node[keyword] as Record<string, JsonSchema>).map(([name, definition]) => [
				name,
				shapeNode(definition, childPointer(childPointer(pointer, keyword), name), context),
			]),
		);
	}
	if (Array.isArray(node.anyOf)) {
		node.anyOf = (node.anyOf as JsonSchema[]).map((branch, index) =>
			shapeNode(branch, childPointer(childPointer(pointer, 'anyOf'), index), context),
		);
	}
	const types = typesOf(node);
	const typed =
		types.length > 0 ||
		Array.isArray(node.anyOf) ||
		typeof node.$ref === 'string' ||
		Array.isArray(node.enum) ||
		node.const !== undefined;
	if (!typed)
		context.problems.push(`${at}: a value without a type (any JSON value) has no strict form`);
	if (types.includes('object')) shapeObject(node, pointer, context);
	if (types.includes('array')) {
		if (Array.isArray(node.items))
			context.problems.push(`${at}: tuple 'items' are not supported in strict mode`);
		else if (node.items === undefined)
			context.problems.push(`${at}: an array needs typed 'items' in strict mode`);
		else node.items = shapeNode(node.items, childPointer(pointer, 'items'), context);
	}
	return node;
}

function shapeObject(node: JsonSchema, pointer: string, context: StrictContext): void {
	const at = pointer === '' ? '/' : pointer;
	const properties = isSchemaObject(node.properties)
		? (node.properties as Record<string, JsonSchema>)
		: {};
	const names = Object.keys(properties);
	if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
		context.problems.push(
			`${at}: extra properties ('additionalProperties') are not allowed in strict mode`,
		);
	} else if (names.length === 0 && node.additionalProperties !== false && pointer !== '') {
		context.problems.push(
			`${at}: an object without listed properties (any keys) has no strict form`,
		);
	}
	const required = new Set(Array.isArray(node.required) ? node.required : []);
	// Own keys only, whatever the names (a property named `__proto__` stays a property).
	node.properties = Object.fromEntries(
		names.map((name) => {
			const property = shapeNode(
				properties[name],
				childPointer(childPointer(pointer, 'properties'), name),
				context,
			);
			return [name, required.has(name) ? property : makeNullable(property, properties[name])];
		}),
	);
	node.required = names;
	node.additionalProperties = false;
}

/** An optional property as strict mode wants it: required, and null when not given. */
function makeNullable(shaped: JsonSchema, original: JsonSchema): JsonSchema {
	const hadDefault = isSchemaObject(original) && original.default !== undefined;
	const note = hadDefault ? 'Send null to use the default.' : 'Send null if not given.';
	const types = typesOf(shaped);
	if (
		types.includes('null') ||
		(Array.isArray(shaped.anyOf) &&
			(shaped.anyOf as JsonSchema[]).some((branch) => typesOf(branch).includes('null')))
	) {
		return appendDescription(shaped, note);
	}
	if (
		types.length > 0 &&
		!Array.isArray(shaped.anyOf) &&
		typeof shaped.$ref !== 'string' &&
		shaped.const === undefined
	) {
		const result: JsonSchema = { ...shaped, type: [...types, 'null'] };
		if (Array.isArray(result.enum)) result.enum = [...result.enum, null];
		return appendDescription(result, note);
	}
	if (Array.isArray(shaped.anyOf) && typeof shaped.$ref !== 'string') {
		return appendDescription(
			{ ...shaped, anyOf: [...(shaped.anyOf as JsonSchema[]), { type: 'null' }] },
			note,
		);
	}
	const { description, ...rest } = shaped;
	const wrapped: JsonSchema = { anyOf: [rest, { type: 'null' }] };
	if (typeof description === 'string') wrapped.description = description;
	return appendDescription(wrapped, note);
}
