import { describe, expect, it } from 'vitest';
import { toolCallResult } from '../../src/mcp/tool-call-result';

describe('toolCallResult', () => {
	it.each([
		['an array of items', '[{"id":1}]', { result: [{ id: 1 }] }],
		['an object', '{"id":1}', { id: 1 }],
		['plain text', 'hello', undefined],
		['text starting with a bracket', '[not json', undefined],
	])('%s', (_case, content, structured) => {
		const result = toolCallResult({ content, isError: false });
		expect(result.content).toEqual([{ type: 'text', text: content }]);
		expect(result.structuredContent).toEqual(structured);
		expect(result.isError).toBeUndefined();
	});

	it('an error observation is an isError result with the same text and no structuredContent', () => {
		expect(toolCallResult({ content: 'Error: node "X" failed: boom', isError: true })).toEqual({
			content: [{ type: 'text', text: 'Error: node "X" failed: boom' }],
			isError: true,
		});
	});
});
