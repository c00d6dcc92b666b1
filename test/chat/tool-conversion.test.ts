import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DynamicStructuredTool } from '@langchain/core/tools';
import {
	toAnthropicTool,
	toOpenAITool,
	toProviderToolChoice,
	type ToolChoice,
} from '../../src/chat/tool-conversion';
import { zodToJsonSchema } from '../../src/schema/zod-to-json-schema';

const schema = z.object({
	city: z.string().describe('City name'),
	days: z.number().int().optional(),
	unit: z.enum(['C', 'F']).default('C'),
});

describe('zodToJsonSchema', () => {
	it('gives draft-07 JSON Schema without $schema', () => {
		expect(zodToJsonSchema(schema)).toMatchInlineSnapshot(`
			{
			  "additionalProperties": false,
			  "properties": {
			    "city": {
			      "description": "City name",
			      "type": "string",
			    },
			    "days": {
			      "type": "integer",
			    },
			    "unit": {
			      "default": "C",
			      "enum": [
			        "C",
			        "F",
			      ],
			      "type": "string",
			    },
			  },
			  "required": [
			    "city",
			  ],
			  "type": "object",
			}
		`);
	});
	it('rejects a value that is not a zod schema', () => {
		expect(() => zodToJsonSchema({} as never)).toThrow('zodToJsonSchema expects a zod schema');
	});
});

describe('toOpenAITool / toAnthropicTool', () => {
	const jsonTool = {
		name: 'weather',
		description: 'Weather for a city',
		parameters: {
			$schema: 'http://json-schema.org/draft-07/schema#',
			type: 'object',
			properties: { city: { type: 'string' } },
		},
	};

	it('OpenAI function format from JSON Schema ($schema stripped)', () => {
		expect(toOpenAITool(jsonTool)).toEqual({
			type: 'function',
			function: {
				name: 'weather',
				description: 'Weather for a city',
				parameters: { type: 'object', properties: { city: { type: 'string' } } },
			},
		});
	});

	it('Anthropic format from a LangChain tool with a zod schema', () => {
		const tool = new DynamicStructuredTool({
			name: 'weather',
			description: 'Weather',
			schema,
			func: async () => '',
		});
		const anthropic = toAnthropicTool(tool);
		expect(anthropic.name).toBe('weather');
		expect(anthropic.description).toBe('Weather');
		expect(anthropic.input_schema).toEqual(zodToJsonSchema(schema));
	});

	it('no schema → empty object schema; no description → no field', () => {
		expect(toOpenAITool({ name: 'now' })).toEqual({
			type: 'function',
			function: { name: 'now', parameters: { type: 'object', properties: {} } },
		});
		expect(toAnthropicTool({ name: 'now' })).toEqual({
			name: 'now',
			input_schema: { type: 'object', properties: {} },
		});
	});
});

describe('toProviderToolChoice', () => {
	it.each<[ToolChoice, unknown, unknown, unknown]>([
		['auto', 'auto', { type: 'auto' }, { functionCallingConfig: { mode: 'AUTO' } }],
		['required', 'required', { type: 'any' }, { functionCallingConfig: { mode: 'ANY' } }],
		['none', 'none', { type: 'none' }, { functionCallingConfig: { mode: 'NONE' } }],
		[
			{ type: 'tool', toolName: 'weather' },
			{ type: 'function', function: { name: 'weather' } },
			{ type: 'tool', name: 'weather' },
			{ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } },
		],
	])('%j', (choice, openai, anthropic, google) => {
		expect(toProviderToolChoice(choice, 'openai')).toEqual(openai);
		expect(toProviderToolChoice(choice, 'anthropic')).toEqual(anthropic);
		expect(toProviderToolChoice(choice, 'google')).toEqual(google);
	});

	it('rejects unknown choices and providers', () => {
		expect(() => toProviderToolChoice('sometimes' as never, 'openai')).toThrow(
			`Unknown tool choice "sometimes"; allowed: 'auto', 'required', 'none', { type: 'tool', toolName }.`,
		);
		expect(() => toProviderToolChoice('auto', 'cohere' as never)).toThrow(
			'Unknown provider "cohere"; allowed: openai, anthropic, google.',
		);
	});
});
