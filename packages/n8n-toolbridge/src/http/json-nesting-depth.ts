/**
 * Default limit on how deep a request body may nest arrays and objects: 128 levels (serde_json's
 * default). Tool arguments, chat messages and JSON Schemas nest a few levels; a body nested
 * thousands of levels deep is an attack: the recursive walks after parsing overflow the stack
 * from about 4,500 levels (JSON.stringify, which re-serializes the body the MCP SDK is handed,
 * structuredClone, schema validation), and the RangeError became a 500.
 */
export const DEFAULT_MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * How deep `text` (valid JSON) nests arrays and objects: 0 for a scalar, 1 for `[]` or `{}`, 2
 * for `[[]]` … A single pass over the characters, no recursion, so any depth is measured
 * without a stack overflow; it stops as soon as the depth passes `stopAbove`.
 */
export function jsonNestingDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (inString) {
			if (code === BACKSLASH) index++;
			else if (code === QUOTE) inString = false;
		} else if (code === QUOTE) inString = true;
		else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
			depth++;
			if (depth > deepest) {
				deepest = depth;
				if (deepest > stopAbove) return deepest;
			}
		} else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--;
	}
	return deepest;
}
