import { describe, expect, it } from 'vitest';
import type { AssistantTurn } from '../../../../src/chat/types';
import { AgentConfigurationError } from '../../../../src/errors/agent-configuration-error';
import { applyValidatorTurn } from '../../../../src/agent/modes/validator/apply-validator-turn';
import { createValidatorState } from '../../../../src/agent/modes/validator/create-validator-state';
import type { ValidatorState } from '../../../../src/agent/modes/validator/validator-state';
import type { JsonSchema } from '../../../../src/schema/json-schema';

/** A tool schema as an MCP server on pydantic sends it. */
const parameters: JsonSchema = {
	type: 'object',
	$defs: {
		Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
	},
	properties: {
		when: { type: 'string', format: 'date' },
		address: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] },
	},
	required: ['when'],
};

const start = (): ValidatorState =>
	createValidatorState({
		config: { model: 'test/model' },
		tools: [{ name: 'Book', description: 'Books a room.', parameters }],
		prompt: 'Book for tomorrow.',
	});

const call = (args: Record<string, unknown>, id = 'c1'): AssistantTurn => ({
	text: '',
	reasoning: '',
	reasoningDetails: [],
	toolCalls: [
		{ toolCallId: id, name: 'Book', argumentsText: JSON.stringify(args), arguments: args },
	],
	finishReason: 'tool-calls',
	rawFinishReason: 'tool_calls',
});

describe('validator mode checks calls with ajv', () => {
	it('sends formats and nested $ref paths back as field / expected / received lines', () => {
		const state = applyValidatorTurn(start(), call({ when: 'tomorrow', address: { city: 7 } }));
		expect(state.status).toBe('ready');
		expect(state.messages.at(-1)).toEqual({
			role: 'tool',
			tool_call_id: 'c1',
			content:
				"Error: invalid arguments for tool 'Book':\n" +
				'- "when": expected a string in date format, received the string "tomorrow"\n' +
				'- "address.city": expected a string, received the number 7\n' +
				'Fix the arguments and call the tool again.',
		});
	});

	it('accepts a valid call from a state that went through JSON', () => {
		const resumed = JSON.parse(JSON.stringify(start())) as ValidatorState;
		const state = applyValidatorTurn(resumed, call({ when: '2025-01-31', address: null }));
		expect(state.status).toBe('awaiting-tool');
		expect(state.call).toMatchObject({
			name: 'Book',
			arguments: { when: '2025-01-31', address: null },
		});
	});

	it('refuses up front a tool whose schema cannot be compiled', () => {
		const create = () =>
			createValidatorState({
				config: { model: 'test/model' },
				tools: [
					{
						name: 'Broken',
						description: '',
						parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } },
					},
				],
				prompt: 'Go.',
			});
		expect(create).toThrow(AgentConfigurationError);
		expect(create).toThrow(
			/^Tool 'Broken' cannot be validated: The JSON Schema is not valid: .*minimum must be number/,
		);
	});
});
