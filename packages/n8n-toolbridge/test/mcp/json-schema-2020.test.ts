import { fromJsonSchema } from '@modelcontextprotocol/server';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_2020_12, toJsonSchema2020 } from '../../src/mcp/json-schema-2020';

const draft07 = {
	$schema: 'http://json-schema.org/draft-07/schema#',
	type: 'object',
	definitions: {
		point: {
			type: 'array',
			items: [{ type: 'number' }, { type: 'number' }],
			additionalItems: false,
		},
	},
	properties: {
		at: { $ref: '#/definitions/point' },
		tags: { type: 'array', items: { type: 'string' } },
		card: { type: 'string' },
		billing: { type: 'string' },
		when: { type: 'string', format: 'date-time' },
	},
	dependencies: { card: ['billing'], billing: { required: ['card'] } },
	required: ['at'],
	additionalProperties: false,
};

describe('toJsonSchema2020', () => {
	const converted = toJsonSchema2020(draft07);

	it('rewrites what differs between draft-07 and 2020-12, and nothing else', () => {
		expect(converted).toEqual({
			$schema: JSON_SCHEMA_2020_12,
			type: 'object',
			$defs: {
				point: {
					type: 'array',
					prefixItems: [{ type: 'number' }, { type: 'number' }],
					items: false,
				},
			},
			properties: {
				at: { $ref: '#/$defs/point' },
				tags: { type: 'array', items: { type: 'string' } },
				card: { type: 'string' },
				billing: { type: 'string' },
				when: { type: 'string', format: 'date-time' },
			},
			dependentRequired: { card: ['billing'] },
			dependentSchemas: { billing: { required: ['card'] } },
			required: ['at'],
			additionalProperties: false,
		});
		expect(draft07.$schema).toBe('http://json-schema.org/draft-07/schema#');
	});

	it('is a valid 2020-12 schema for a strict validator and for the MCP SDK’s own, and validates the same', () => {
		const ajv = new Ajv2020({ strict: true, strictTuples: false, strictRequired: false });
		ajv.addFormat('date-time', true);
		expect(ajv.validateSchema(converted), JSON.stringify(ajv.errors)).toBe(true);
		const validate = ajv.compile(converted);
		expect(validate({ at: [1, 2] })).toBe(true);
		expect(validate({ at: [1, 2, 3] })).toBe(false);
		expect(validate({ at: [1, 2], card: 'x' })).toBe(false);
		const sdk = fromJsonSchema(converted as never);
		expect(sdk['~standard'].validate({ at: [1, 2] })).toEqual({ value: { at: [1, 2] } });
		expect(sdk['~standard'].validate({ at: [1, 'a'] })).toHaveProperty('issues');
	});
});
