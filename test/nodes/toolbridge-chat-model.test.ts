import { describe, expect, it } from 'vitest';
import { ToolbridgeChatModel } from '../../nodes/ToolbridgeChatModel/ToolbridgeChatModel.node';
import { readModelParameter } from '../../src/node-settings/read-model-parameter';

describe('Toolbridge Chat Model node description', () => {
	it("a sub-node: no inputs, an ai_languageModel output, the orchestrator's credentials, a searchable model list and the model options", () => {
		const node = new ToolbridgeChatModel();
		const { description } = node;
		expect(description).toMatchObject({
			name: 'toolbridgeChatModel',
			displayName: 'Toolbridge Chat Model',
			inputs: [],
			outputs: [{ type: 'ai_languageModel', displayName: 'Model' }],
			codex: {
				categories: ['AI'],
				subcategories: {
					AI: ['Language Models', 'Root Nodes'],
					'Language Models': ['Chat Models (Recommended)'],
				},
			},
		});
		expect(description.credentials?.map((credential) => credential.name)).toEqual([
			'openRouterApi',
			'openAiCompatibleApi',
		]);
		const byName = Object.fromEntries(
			description.properties.map((property) => [property.name, property]),
		);
		expect(byName.authentication.default).toBe('openRouterApi');
		expect(byName.model).toMatchObject({
			type: 'resourceLocator',
			default: { mode: 'list', value: 'anthropic/claude-sonnet-4' },
		});
		expect(Object.keys(node.methods.listSearch)).toEqual(['searchModels']);
		const optionNames = (byName.options.options ?? []).map((option) =>
			'name' in option ? option.name : '',
		);
		expect(optionNames).toEqual(
			expect.arrayContaining([
				'fallbackModels',
				'providerOrder',
				'providerSort',
				'reasoningEffort',
				'promptCaching',
				'temperature',
				'maxTokens',
				'topP',
				'topK',
				'frequencyPenalty',
				'presencePenalty',
				'seed',
				'stopSequences',
				'extraHeaders',
				'firstTokenTimeout',
				'stallTimeout',
				'timeout',
			]),
		);
		// Nothing of the agent loop.
		expect(optionNames).not.toEqual(expect.arrayContaining(['systemMessage']));
		expect(
			optionNames.filter((name) =>
				[
					'maxIterations',
					'toolChoice',
					'outputFormat',
					'runTimeout',
					'toolTimeout',
					'debugLog',
				].includes(name),
			),
		).toEqual([]);
	});
});

describe('readModelParameter', () => {
	it.each([
		['anthropic/claude-sonnet-4', 'anthropic/claude-sonnet-4'],
		['  spaced/model ', 'spaced/model'],
		[{ __rl: true, mode: 'list', value: 'openai/gpt-4.1' }, 'openai/gpt-4.1'],
		[{ __rl: true, mode: 'id', value: ' llama3.1 ' }, 'llama3.1'],
		[{ __rl: true, mode: 'list', value: '' }, ''],
		[undefined, ''],
		[null, ''],
	])('%j → %j', (value, expected) => {
		expect(readModelParameter(value)).toBe(expected);
	});
});
