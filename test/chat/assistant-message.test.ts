import { describe, expect, it } from 'vitest';
import { assistantMessageFromTurn } from '../../src/chat/assistant-message';
import type { AssistantTurn } from '../../src/chat/types';

const base: AssistantTurn = {
	text: '',
	reasoning: '',
	reasoningDetails: [],
	toolCalls: [],
	finishReason: 'stop',
	rawFinishReason: 'stop',
};

describe('assistantMessageFromTurn', () => {
	it('a text answer', () => {
		expect(assistantMessageFromTurn({ ...base, text: 'Hi' })).toEqual({
			role: 'assistant',
			content: 'Hi',
		});
	});

	it('tool calls only: content null, arguments text as received, broken arguments as {}', () => {
		const message = assistantMessageFromTurn({
			...base,
			finishReason: 'tool-calls',
			toolCalls: [
				{ toolCallId: 'a', name: 'f', argumentsText: '{"x": 1}', arguments: { x: 1 } },
				{ toolCallId: 'b', name: 'g', argumentsText: '', arguments: {} },
				{ toolCallId: 'c', name: 'h', argumentsText: '{"x":', error: 'broken' },
			],
		});
		expect(message).toEqual({
			role: 'assistant',
			content: null,
			tool_calls: [
				{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x": 1}' } },
				{ id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
				{ id: 'c', type: 'function', function: { name: 'h', arguments: '{}' } },
			],
		});
	});

	it('reasoning details go back unmodified; plain reasoning only when there are none', () => {
		const details = [{ type: 'reasoning.text', text: 'hm', signature: 's', index: 0 }];
		expect(
			assistantMessageFromTurn({ ...base, text: 'x', reasoning: 'hm', reasoningDetails: details }),
		).toEqual({ role: 'assistant', content: 'x', reasoning_details: details });
		expect(assistantMessageFromTurn({ ...base, text: 'x', reasoning: 'hm' })).toEqual({
			role: 'assistant',
			content: 'x',
			reasoning: 'hm',
		});
	});
});
