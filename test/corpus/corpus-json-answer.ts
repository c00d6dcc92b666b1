/**
 * The JSON answer of the corpus's scripted model for an agent with an output parser: the JSON
 * Schema the loop puts in the request ("…that matches this JSON Schema:" in the instructions, or
 * a `response_format` / `responseSchema` / final-answer tool's parameters), and a value built
 * from it that the schema accepts.
 */

const MARKER = 'matches this JSON Schema:';

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies and schemas are arbitrary JSON */

/** The JSON Schema a request asks the answer to match, if it names one. */
export function requestedSchema(body: any): object | undefined {
	const direct =
		body?.response_format?.json_schema?.schema ??
		body?.generationConfig?.responseJsonSchema ??
		body?.generationConfig?.responseSchema;
	if (direct && typeof direct === 'object') return direct;
	for (const text of strings(body)) {
		const at = text.indexOf(MARKER);
		if (at < 0) continue;
		const schema = firstJsonObject(text.slice(at + MARKER.length));
		if (schema) return schema;
	}
	return undefined;
}

/** Whether the request asks for a JSON answer without a schema ("reply with only a JSON object"). */
export function asksForJson(body: any): boolean {
	return strings(body).some((text) => /reply with only a JSON (object|value)/.test(text));
}

function strings(value: unknown, found: string[] = []): string[] {
	if (typeof value === 'string') found.push(value);
	else if (Array.isArray(value)) for (const each of value) strings(each, found);
	else if (value && typeof value === 'object')
		for (const each of Object.values(value)) strings(each, found);
	return found;
}

/** The first balanced `{…}` of `text`, parsed; undefined when there is none or it is not JSON. */
function firstJsonObject(text: string): object | undefined {
	const start = text.indexOf('{');
	if (start < 0) return undefined;
	let depth = 0;
	let inString = false;
	for (let index = start; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '{') depth++;
		else if (char === '}' && --depth === 0) {
			try {
				return JSON.parse(text.slice(start, index + 1)) as object;
			} catch {
				return undefined;
			}
		}
	}
	return undefined;
}

/** A value the schema accepts: required (else all) properties, one array item, the first enum value. */
export function sampleFromSchema(schema: any, root: any = schema, depth = 0): unknown {
	if (!schema || typeof schema !== 'object' || depth > 12) return 'corpus';
	if (typeof schema.$ref === 'string') {
		const path = schema.$ref.replace(/^#\//, '').split('/');
		return sampleFromSchema(
			path.reduce((node: any, key: string) => node?.[key], root),
			root,
			depth + 1,
		);
	}
	if ('const' in schema) return schema.const;
	if (Array.isArray(schema.enum)) return schema.enum[0];
	const choice = schema.anyOf ?? schema.oneOf;
	if (Array.isArray(choice)) {
		const first = choice.find((each: any) => each?.type !== 'null') ?? choice[0];
		return sampleFromSchema(first, root, depth + 1);
	}
	if (Array.isArray(schema.allOf))
		return Object.assign(
			{},
			...schema.allOf.map((each: any) => sampleFromSchema(each, root, depth + 1)),
		);
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	const type = types.find((each: unknown) => each !== 'null') ?? types[0];
	if (type === 'object' || (type === undefined && schema.properties)) {
		const properties = schema.properties ?? {};
		const keys: string[] = schema.required ?? Object.keys(properties);
		return Object.fromEntries(
			keys.map((key) => [key, sampleFromSchema(properties[key] ?? {}, root, depth + 1)]),
		);
	}
	if (type === 'array') {
		const count = Math.max(1, schema.minItems ?? 1);
		return Array.from({ length: count }, () =>
			sampleFromSchema(schema.items ?? {}, root, depth + 1),
		);
	}
	if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
	if (type === 'boolean') return true;
	if (type === 'null') return null;
	if (schema.format === 'date-time') return '2026-01-15T00:00:00Z';
	if (schema.format === 'date') return '2026-01-15';
	if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
	if (schema.format === 'email') return 'someone@example.com';
	return 'corpus';
}
