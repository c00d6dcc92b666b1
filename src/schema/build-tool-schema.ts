import { z } from 'zod';
import type { FromAIJsonValue } from '../from-ai/from-ai-marker';
import { cloneJson } from './json-schema-parts';
import { argumentChecks, isPlainObject } from '../errors/invalid-argument-error';
import {
	mergeFromAIMarkers,
	type MergeFromAIMarkersOptions,
	type SchemaMarker,
	type ToolParameter,
} from './merge-from-ai-markers';

/** A draft-07 JSON Schema object as this package emits it. */
export interface ToolJsonSchema {
	$schema: 'http://json-schema.org/draft-07/schema#';
	type: 'object';
	properties: Record<string, Record<string, unknown>>;
	required?: string[];
	additionalProperties: false;
}

/** The tool contract: Zod for validation (n8n/LangChain), JSON Schema for the wire. */
export interface ToolSchema {
	zod: z.ZodObject<Record<string, z.ZodTypeAny>>;
	jsonSchema: ToolJsonSchema;
	/** The merged parameters both schemas were built from. */
	parameters: ToolParameter[];
}

/**
 * Builds the tool's argument schema from markers, both as Zod (zod 3.25, n8n's pin) and as
 * draft-07 JSON Schema built directly (no zod-to-json-schema round trip).
 * A key with a default is optional (Zod `.default()`, JSON Schema `default`, not required);
 * `json` is a non-empty object or array.
 *
 * @throws {InvalidArgumentError} (INVALID_ARGUMENT) when `markers` is not an array of markers.
 * @throws {FromAIKeyConflictError} when two markers use one key incompatibly (see
 * `mergeFromAIMarkers`); the message names both parameter paths.
 */
export function buildToolSchema(
	markers: readonly SchemaMarker[],
	options: MergeFromAIMarkersOptions = {},
): ToolSchema {
	const check = argumentChecks('buildToolSchema');
	check.array(markers, 'markers').forEach((marker, index) => {
		if (!isPlainObject(marker) || typeof marker.key !== 'string')
			check.fail(
				`markers[${index}]`,
				'a marker object with a string "key" (from collectFromAIMarkers)',
				marker,
			);
	});
	check.optionalObject(options, 'options');
	const { parameters, errors } = mergeFromAIMarkers(markers, options);
	if (errors.length > 0) throw errors[0];
	// Object.fromEntries defines own keys: no key (not even `__proto__`) reaches a prototype.
	const shape: Record<string, z.ZodTypeAny> = Object.fromEntries(
		parameters.map((parameter) => [parameter.key, zodFor(parameter)]),
	);
	const properties: Record<string, Record<string, unknown>> = Object.fromEntries(
		parameters.map((parameter) => [parameter.key, jsonSchemaFor(parameter)]),
	);
	const required = parameters
		.filter((parameter) => parameter.defaultValue === undefined)
		.map((parameter) => parameter.key);
	const jsonSchema: ToolJsonSchema = {
		$schema: 'http://json-schema.org/draft-07/schema#',
		type: 'object',
		properties,
		additionalProperties: false,
	};
	// Draft-04 validators (still behind some providers) reject an empty `required`.
	if (required.length > 0) jsonSchema.required = required;
	return { zod: z.object(shape), jsonSchema, parameters };
}

function isNonEmpty(value: Record<string, unknown>): boolean {
	for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return true;
	return false;
}

/**
 * Zod for one parameter. Built with constructor params (`{ description }`,
 * `ZodDefault.create`) rather than `.describe()` / `.default()`: each of those clones the
 * schema, and building the Zod object was most of the schema step's time. Every property
 * gets its own instances: zod-to-json-schema (used by LangChain and n8n's agent) turns a
 * shared instance into a `$ref`, which models handle badly.
 */
function zodFor(parameter: ToolParameter): z.ZodTypeAny {
	const hasDefault = parameter.defaultValue !== undefined;
	const description = parameter.description ? parameter.description : undefined;
	// With a default, the description goes on the outer ZodDefault (where converters read it).
	const innerParams = hasDefault || description === undefined ? undefined : { description };
	let schema: z.ZodTypeAny;
	switch (parameter.type) {
		case 'string':
			schema = z.string(innerParams);
			break;
		case 'number':
			schema = z.number(innerParams);
			break;
		case 'boolean':
			schema = z.boolean(innerParams);
			break;
		case 'json': {
			const branches = [
				z.record(z.unknown()).refine(isNonEmpty, { message: 'Expected a non-empty object' }),
				z.array(z.unknown()).min(1, { message: 'Expected a non-empty array' }),
			] as const;
			schema =
				parameter.defaultValue === null
					? z.union([...branches, z.null()], innerParams)
					: z.union(branches, innerParams);
			break;
		}
	}
	if (!hasDefault) return schema;
	const defaultValue = parameter.defaultValue as FromAIJsonValue;
	// A fresh copy per parse for objects: a node must not be able to mutate the shared default.
	const produce =
		typeof defaultValue === 'object' && defaultValue !== null
			? () => cloneJson(defaultValue)
			: () => defaultValue;
	return z.ZodDefault.create(schema, { default: produce, description });
}

/**
 * `json` is emitted as `anyOf` object / array, each branch with an explicit `type`, rather
 * than `type: ['object', 'array']`: Gemini's OpenAPI-subset schemas reject type arrays but
 * accept `anyOf`, and OpenAI/Anthropic accept both. n8n's own `json` reaches the model with
 * no `type` at all, so models guess (often a JSON string). The array branch carries
 * `items: {}` because OpenAI rejects array schemas without `items`.
 */
function jsonSchemaFor(parameter: ToolParameter): Record<string, unknown> {
	const property: Record<string, unknown> =
		parameter.type === 'json'
			? {
					anyOf: [
						{ type: 'object', minProperties: 1 },
						{ type: 'array', minItems: 1, items: {} },
						...(parameter.defaultValue === null ? [{ type: 'null' }] : []),
					],
				}
			: { type: parameter.type };
	// An empty description tells the model nothing; the marker still keeps it.
	if (parameter.description) property.description = parameter.description;
	if (parameter.defaultValue !== undefined) property.default = cloneJson(parameter.defaultValue);
	return property;
}
