import { describe, expect, test } from 'vitest';
import type { JsonSchema } from '../../src/schema/json-schema';
import { inferJsonSchemaFromExample } from '../../src/schema/infer-json-schema';
import { responseFormatForSchema } from '../../src/schema/response-format-for-schema';
import { validateJson } from '../../src/schema/validate-json';

describe('responseFormatForSchema', () => {
	const answer: JsonSchema = {
		$schema: 'http://json-schema.org/draft-07/schema#',
		type: 'object',
		properties: { summary: { type: 'string' }, confidence: { type: 'number', default: 0.5 } },
		required: ['summary'],
		additionalProperties: false,
	};

	test('a strict-capable schema is sent strict, shaped', () => {
		expect(responseFormatForSchema(answer, 'final answer', { description: 'The result' })).toEqual({
			type: 'json_schema',
			json_schema: {
				name: 'final_answer',
				strict: true,
				description: 'The result',
				schema: {
					type: 'object',
					properties: {
						summary: { type: 'string' },
						confidence: {
							type: ['number', 'null'],
							description: 'Default: 0.5. Send null to use the default.',
						},
					},
					required: ['summary', 'confidence'],
					additionalProperties: false,
				},
			},
		});
	});

	test.each([
		[
			'a free-form object',
			{ type: 'object', properties: { data: { type: 'object' } }, required: ['data'] },
		],
		['an array root (inferred from an example)', inferJsonSchemaFromExample([{ id: 1 }])],
		['a schema whose optional part has no type', { type: 'object', properties: { extra: {} } }],
	])('falls back to strict: false for %s', (_name, schema) => {
		const format = responseFormatForSchema(schema as JsonSchema, 'answer');
		expect(format.json_schema.strict).toBe(false);
		expect(format.json_schema.schema).not.toHaveProperty('$schema');
	});

	test('strict: false is honoured', () => {
		const format = responseFormatForSchema(answer, 'answer', { strict: false });
		expect(format.json_schema).toMatchObject({
			strict: false,
			schema: { required: ['summary'], properties: { confidence: { default: 0.5 } } },
		});
	});

	test('the answer a strict model gives validates against the sent schema', () => {
		const { schema } = responseFormatForSchema(
			inferJsonSchemaFromExample({ title: 'x', rows: [{ id: 1, note: null }] }),
			'answer',
		).json_schema;
		expect(validateJson({ title: 'Report', rows: [{ id: 2, note: null }] }, schema)).toEqual({
			valid: true,
		});
		expect(validateJson({ title: 'Report', rows: [{ id: 'two' }] }, schema)).toEqual({
			valid: false,
			errors: [
				"/rows/0: required property 'note' is missing",
				'/rows/0/id: must be integer (found "two")',
			],
		});
	});
});
