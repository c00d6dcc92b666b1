/** jsonNestingDepth: how deep valid JSON text nests, measured without recursion. */
import { describe, expect, it } from 'vitest';
import { jsonNestingDepth } from '../../src/http/json-nesting-depth';

describe('jsonNestingDepth', () => {
	it.each([
		['1', 0],
		['"[[{{"', 0],
		['[]', 1],
		['{}', 1],
		['[[], {"a": [1, {"b": 2}]}]', 4],
		['{"a": "]]]}}}", "b": [[["x"]]]}', 4],
		['["a \\" [[[ \\\\", [1]]', 2],
		['{"\\\\": {"\\"": []}}', 3],
	])('%s nests %i deep', (text, depth) => {
		expect(JSON.parse(text)).toBeDefined();
		expect(jsonNestingDepth(text)).toBe(depth);
	});

	it('measures 1,000,000 levels (no stack), and stops once past stopAbove', () => {
		const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
		expect(jsonNestingDepth(deep)).toBe(1_000_000);
		expect(jsonNestingDepth(deep, 128)).toBe(129);
	});
});
