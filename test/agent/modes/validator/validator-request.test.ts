import { describe, expect, it } from 'vitest';
import { buildChatRequest } from '../../../../src/agent/build-chat-request';
import { createAgentState } from '../../../../src/agent/create-agent-state';
import { createValidatorState } from '../../../../src/agent/modes/validator/create-validator-state';
import { buildValidatorRequest } from '../../../../src/agent/modes/validator/next-validator-action';
import { validatorTranscript } from '../../../../src/agent/modes/validator/validator-transcript';
import type { ModelSettings } from '../../../../src/agent/model-options';

const tool = {
	name: 'upper',
	description: 'Upper-cases',
	parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const modelSettings: ModelSettings = {
	model: 'anthropic/claude-sonnet-4',
	fallbackModels: ['openai/gpt-4.1'],
	providerPreferences: { order: ['Anthropic'], allow_fallbacks: false },
	temperature: 0,
	maxTokens: 200,
	topP: 0.5,
	topK: 10,
	frequencyPenalty: 0.2,
	presencePenalty: 0.1,
	seed: 3,
	stop: ['STOP'],
	reasoning: { effort: 'high' },
	providerOptions: { transforms: ['middle-out'] },
};
const modelFields = [
	'models',
	'provider',
	'temperature',
	'max_tokens',
	'top_p',
	'top_k',
	'frequency_penalty',
	'presence_penalty',
	'seed',
	'stop',
	'reasoning',
	'transforms',
];
const pick = (request: Record<string, unknown>) =>
	Object.fromEntries(modelFields.map((field) => [field, request[field]]));

describe('validator requests carry the full loop’s model settings', () => {
	it('every sampling, reasoning, routing and provider field equals the full loop’s', () => {
		const validator = buildValidatorRequest(
			createValidatorState({
				config: { ...modelSettings, toolName: 'upper' },
				tools: [tool],
				prompt: 'go',
			}),
		);
		const full = buildChatRequest(
			createAgentState({ config: modelSettings, tools: [tool], prompt: 'go' }),
		);
		expect(pick(validator)).toEqual(pick(full));
		expect(validator.models).toEqual(['anthropic/claude-sonnet-4', 'openai/gpt-4.1']);
		expect(validator).toMatchObject({
			tool_choice: { type: 'function', function: { name: 'upper' } },
			parallel_tool_calls: false,
		});
	});

	it('settings that were not given are not sent', () => {
		const validator = buildValidatorRequest(
			createValidatorState({ config: { model: 'm' }, tools: [tool], prompt: 'go' }),
		);
		expect(Object.keys(validator).sort()).toEqual([
			'messages',
			'model',
			'parallel_tool_calls',
			'tool_choice',
			'tools',
		]);
	});
});

describe('validatorTranscript', () => {
	it('is the question, the accepted call and its result (no rejected attempts); empty when nothing was accepted', () => {
		const state = createValidatorState({ config: { model: 'm' }, tools: [tool], prompt: 'go' });
		expect(validatorTranscript('go', state)).toEqual([]);
		const done = {
			...state,
			status: 'done' as const,
			call: { toolCallId: 'c9', name: 'upper', arguments: { text: 'a' } },
			result: {
				tool: 'upper',
				arguments: { text: 'a' },
				result: { text: 'A' },
				attempts: 2,
				attemptLog: [],
				usage: state.usage,
			},
		};
		expect(validatorTranscript('go', done)).toEqual([
			{ role: 'user', content: 'go' },
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{ id: 'c9', type: 'function', function: { name: 'upper', arguments: '{"text":"a"}' } },
				],
			},
			{ role: 'tool', tool_call_id: 'c9', content: '{"text":"A"}' },
		]);
	});
});
