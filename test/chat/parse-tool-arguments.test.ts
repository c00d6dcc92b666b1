import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/chat/parse-tool-arguments';
import { ToolArgumentsError } from '../../src/errors/tool-arguments-error';

describe('parseToolArguments', () => {
	it.each([
		['', {}],
		['   \n', {}],
		['{}', {}],
		['{"a":1,"b":[true,null],"c":{"d":"é"}}', { a: 1, b: [true, null], c: { d: 'é' } }],
		[' {"a":1} ', { a: 1 }],
	])('%j → object', (text, expected) => {
		expect(parseToolArguments(text)).toEqual(expected);
	});

	it.each([
		['{"a":1}{"b":2}', 7, 'two JSON values run together (a second object starts here)'],
		['{"a":1} x', 8, 'unexpected text after the JSON object'],
		['{"a":', 5, 'the JSON ends too early (truncated)'],
		['{"a" 1}', 5, "invalid JSON (Expected ':' after property name)"],
		['[1]', 0, 'expected a JSON object, found an array'],
		['"text"', 0, 'expected a JSON object, found a string'],
		['null', 0, 'expected a JSON object, found null'],
		['42', 0, 'expected a JSON object, found a number'],
	])('%j → ToolArgumentsError at %i', (text, index, description) => {
		let caught: unknown;
		try {
			parseToolArguments(text);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(ToolArgumentsError);
		expect(caught).toMatchObject({ code: 'TOOL_ARGUMENTS_INVALID', index, description });
		expect((caught as Error).message).toBe(
			`Tool arguments are not one JSON object: ${description} at position ${index} in ${JSON.stringify(text)}`,
		);
	});
});
