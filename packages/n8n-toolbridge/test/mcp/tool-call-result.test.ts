import { describe, expect, it } from 'vitest';
import { toolCallResult } from '../../src/mcp/tool-call-result';

describe('toolCallResult', () => {
	it.each([
		['an array of items', [{ id: 1 }], { result: [{ id: 1 }] }],
		['an object', { id: 1 }, { id: 1 }],
		['a scalar', 42, { result: 42 }],
	])(
		'%s: the value the tool made the text from is structuredContent',
		(_case, value, structured) => {
			const content = JSON.stringify(value);
			const result = toolCallResult({ content, isError: false, value });
			expect(result.content).toEqual([{ type: 'text', text: content }]);
			expect(result.structuredContent).toEqual(structured);
			expect(result.isError).toBeUndefined();
		},
	);

	it.each([
		['plain text', 'hello'],
		['JSON-looking text the tool did not make from a value (never parsed back)', '{"id":1}'],
	])('%s: text only', (_case, content) => {
		const result = toolCallResult({ content, isError: false });
		expect(result).toEqual({ content: [{ type: 'text', text: content }] });
	});

	it('an error observation is an isError result with the same text and no structuredContent', () => {
		expect(
			toolCallResult({ content: 'Error: node "X" failed: boom', isError: true, value: { x: 1 } }),
		).toEqual({
			content: [{ type: 'text', text: 'Error: node "X" failed: boom' }],
			isError: true,
		});
	});
});
