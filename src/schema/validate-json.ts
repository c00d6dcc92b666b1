import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './json-schema';
import { JsonSchemaError } from '../errors/json-schema-error';
import { formatJsonValue } from './json-schema-parts';
import { schemaProblemsFromErrors, type SchemaProblem } from './schema-problems';

/** The result of {@link validateJson}. */
export type JsonValidationResult = { valid: true } | { valid: false; errors: string[] };

/*
 * Ajv, not a hand-written subset: the schemas validated here come from users (output format
 * json, MCP and other connected tools) as well as from the compiler, so `$ref`/definitions,
 * patternProperties, if/then/else, dependencies, tuple items and exact draft semantics
 * (deep-equal enum/const/uniqueItems, code-point string lengths, multipleOf on decimals) all
 * have to be right. Options:
 * - allErrors: the repair prompt gets every problem, not only the first;
 * - verbose: errors carry their subschema and value, which the field / expected / received
 *   problems of {@link validateJsonSchema} are built from;
 * - strict: false: provider annotations (`nullable`, `example`, `propertyOrdering`) are not errors;
 * - formats (`date-time`, `date`, `email`, `uri`, `uuid`, `ipv4` … as ajv-formats defines
 *   them) are checked: a schema that asks for a date-time gets one; a format ajv-formats does
 *   not know is not an error (strict: false) and not checked;
 * - addUsedSchema: false: two schemas with the same `$id` must not collide in the cache.
 */
// `ownProperties`: a property named `toString` the value lacks is missing, not Object.prototype's member.
const AJV_OPTIONS: Options = {
	allErrors: true,
	verbose: true,
	strict: false,
	addUsedSchema: false,
	logger: false,
	ownProperties: true,
};

type Draft = 'draft-07' | '2019-09' | '2020-12';
const validators: Partial<Record<Draft, Ajv>> = {};

/** A compiled schema; `source` is the object ajv compiled, which its errors point into. */
interface CompiledSchema {
	validate: ValidateFunction;
	source: JsonSchema | boolean;
	ajv: Ajv;
}

/*
 * Each schema is compiled once. By object first; then by its JSON text, because the same
 * schema often comes back as a new object (a tool schema in a validator state that went
 * through JSON between engine steps, an output schema parsed anew for every item). Ajv keeps
 * every schema it compiled in its own cache; the least recently used text entries beyond
 * MAX_COMPILED are removed from it too, so a long-running n8n process does not grow.
 */
const MAX_COMPILED = 256;
const compiledByObject = new WeakMap<object, CompiledSchema>();
const compiledByText = new Map<string, CompiledSchema>();

/** Most JSON pointers in one result; the rest are summarised in one line. */
const MAX_ERRORS = 20;

/**
 * Checks a value against a JSON Schema (draft-07 by default; a root `$schema` naming 2019-09
 * or 2020-12 selects that draft; formats are checked as ajv-formats defines them). Each error is `JSON pointer:
 * what was expected (what was found)`, e.g. `/age: must be integer (found "36")`, ready to
 * be sent back to a model for a repair attempt. Each schema is compiled once (cached by
 * object and by JSON text).
 *
 * @throws {JsonSchemaError} `INVALID_JSON_SCHEMA` when the schema itself is not valid.
 */
export function validateJson(value: unknown, schema: JsonSchema | boolean): JsonValidationResult {
	const { validate } = compiledSchema(schema);
	if (validate(value)) return { valid: true };
	return { valid: false, errors: formatErrors(validate.errors ?? [], value) };
}

/**
 * Checks a value against a JSON Schema with the same validator as {@link validateJson}, and
 * returns each problem as field / expected / received, e.g. `{ field: 'address.city',
 * expected: 'a string (required)', received: 'nothing' }` — the form validator mode sends
 * back to the model (see {@link describeSchemaProblem}). An empty list means the value is
 * valid. Strict: `"5"` is not a number.
 *
 * @throws {JsonSchemaError} `INVALID_JSON_SCHEMA` when the schema itself is not valid.
 */
export function validateJsonSchema(value: unknown, schema: JsonSchema | boolean): SchemaProblem[] {
	const { validate, source } = compiledSchema(schema);
	if (validate(value)) return [];
	return schemaProblemsFromErrors(validate.errors ?? [], value, source);
}

/**
 * Compiles a schema (once; later checks reuse it), so a caller can refuse an unusable
 * schema before any value comes.
 *
 * @throws {JsonSchemaError} `INVALID_JSON_SCHEMA` when the schema itself is not valid.
 */
export function checkJsonSchema(schema: JsonSchema | boolean): void {
	compiledSchema(schema);
}

function compiledSchema(schema: JsonSchema | boolean): CompiledSchema {
	const byObject = typeof schema === 'object' ? compiledByObject.get(schema) : undefined;
	if (byObject) return byObject;
	const text = jsonText(schema);
	let compiled = text === undefined ? undefined : compiledByText.get(text);
	if (compiled && text !== undefined) {
		compiledByText.delete(text);
		compiledByText.set(text, compiled);
	} else {
		compiled = compile(schema);
		if (text !== undefined) remember(text, compiled);
	}
	if (typeof schema === 'object') compiledByObject.set(schema, compiled);
	return compiled;
}

function remember(text: string, compiled: CompiledSchema): void {
	compiledByText.set(text, compiled);
	for (const [oldest, entry] of compiledByText) {
		if (compiledByText.size <= MAX_COMPILED) break;
		compiledByText.delete(oldest);
		entry.ajv.removeSchema(entry.source);
	}
}

function compile(schema: JsonSchema | boolean): CompiledSchema {
	if (typeof schema === 'boolean') {
		const ajv = ajvFor('draft-07');
		return { validate: ajv.compile(schema), source: schema, ajv };
	}
	const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
	const draft: Draft = declared.includes('2020-12')
		? '2020-12'
		: declared.includes('2019-09')
			? '2019-09'
			: 'draft-07';
	// Draft-04/06 and unknown meta-schemas: validated as draft-07 rather than refused.
	const source =
		draft === 'draft-07' && declared !== '' && !declared.includes('draft-07')
			? withoutSchemaKeyword(schema)
			: schema;
	const ajv = ajvFor(draft);
	try {
		return { validate: ajv.compile(source), source, ajv };
	} catch (error) {
		// Ajv caches a schema before checking it; a refused one must not stay there.
		ajv.removeSchema(source);
		const reason = error instanceof Error ? error.message : String(error);
		throw new JsonSchemaError(
			'INVALID_JSON_SCHEMA',
			`The JSON Schema is not valid: ${reason}. Allowed: a draft-07 (or 2019-09 / 2020-12) JSON Schema.`,
			[reason],
			{ cause: error },
		);
	}
}

/** The schema as JSON text, the second cache key; undefined for one that is not JSON (a cycle). */
function jsonText(schema: JsonSchema | boolean): string | undefined {
	try {
		return JSON.stringify(schema);
	} catch {
		return undefined;
	}
}

function ajvFor(draft: Draft): Ajv {
	let ajv = validators[draft];
	if (!ajv) {
		ajv =
			draft === '2020-12'
				? new Ajv2020(AJV_OPTIONS)
				: draft === '2019-09'
					? new Ajv2019(AJV_OPTIONS)
					: new Ajv(AJV_OPTIONS);
		addFormats(ajv);
		validators[draft] = ajv;
	}
	return ajv;
}

function withoutSchemaKeyword(schema: JsonSchema): JsonSchema {
	const { $schema: _ignored, ...rest } = schema;
	return rest;
}

function formatErrors(errors: readonly ErrorObject[], root: unknown): string[] {
	const lines: string[] = [];
	const seen = new Set<string>();
	for (const error of errors) {
		const line = formatError(error, root);
		if (seen.has(line)) continue;
		seen.add(line);
		lines.push(line);
	}
	if (lines.length <= MAX_ERRORS) return lines;
	return [...lines.slice(0, MAX_ERRORS), `… and ${lines.length - MAX_ERRORS} more problems`];
}

function formatError(error: ErrorObject, root: unknown): string {
	const params = error.params as Record<string, unknown>;
	let pointer = error.instancePath;
	let message = error.message ?? `must pass '${error.keyword}'`;
	if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
		message = `required property '${params.missingProperty}' is missing`;
	} else if (
		error.keyword === 'additionalProperties' &&
		typeof params.additionalProperty === 'string'
	) {
		pointer = `${pointer}/${escapePointer(params.additionalProperty)}`;
		message = 'is not an allowed property';
	} else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
		message = `must be one of ${params.allowedValues.map((allowed) => formatJsonValue(allowed, 40)).join(', ')}`;
	} else if (error.keyword === 'const') {
		message = `must be ${formatJsonValue(params.allowedValue, 40)}`;
	}
	const found =
		error.keyword === 'required' || error.keyword === 'additionalProperties'
			? undefined
			: valueAt(root, error.instancePath);
	return `${pointer === '' ? '/' : pointer}: ${message}${found === undefined ? '' : ` (found ${found})`}`;
}

/** A short rendering of the value at a JSON pointer, for "found …". */
function valueAt(root: unknown, pointer: string): string | undefined {
	let node: unknown = root;
	if (pointer !== '') {
		for (const raw of pointer.slice(1).split('/')) {
			const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
			if (typeof node !== 'object' || node === null) return undefined;
			node = (node as Record<string, unknown>)[segment];
		}
	}
	if (node === undefined) return undefined;
	if (Array.isArray(node))
		return node.length === 0 ? 'an empty array' : `an array of ${node.length}`;
	if (typeof node === 'object' && node !== null)
		return Object.keys(node).length === 0 ? 'an empty object' : 'an object';
	return formatJsonValue(node, 60);
}

function escapePointer(segment: string): string {
	return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
