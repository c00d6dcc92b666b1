import { describe, expect, test } from 'vitest';
import { extractFromAICalls } from 'n8n-workflow';
import { FromAIError } from '../../src/errors/from-ai-error';
import { findFromAICalls } from '../../src/from-ai/find-from-ai-calls';

/** The fields that matter for a marker's meaning (spans are checked in their own table). */
function meaning(value: string): Array<Record<string, unknown>> {
	return findFromAICalls(value).map(({ key, description, type, defaultValue }) => {
		const result: Record<string, unknown> = { key, type };
		if (description !== undefined) result.description = description;
		if (defaultValue !== undefined) result.defaultValue = defaultValue;
		return result;
	});
}

function errorOf(value: string): FromAIError {
	try {
		findFromAICalls(value);
	} catch (error) {
		expect(error).toBeInstanceOf(FromAIError);
		return error as FromAIError;
	}
	throw new Error(`expected a FromAIError for ${value}`);
}

describe('findFromAICalls: what is a marker', () => {
	test.each([
		['plain call', "={{ $fromAI('email') }}", [{ key: 'email', type: 'string' }]],
		['without leading =', "{{ $fromAI('email') }}", [{ key: 'email', type: 'string' }]],
		[
			'all four arguments',
			"={{ $fromAI('n', 'How many', 'number', 5) }}",
			[{ key: 'n', description: 'How many', type: 'number', defaultValue: 5 }],
		],
		['$fromai spelling', "={{ $fromai('a') }}", [{ key: 'a', type: 'string' }]],
		['$fromAi spelling', "={{ $fromAi('a') }}", [{ key: 'a', type: 'string' }]],
		[
			'double and backtick quotes',
			'={{ $fromAI("a", `desc`, "boolean") }}',
			[{ key: 'a', description: 'desc', type: 'boolean' }],
		],
		[
			'whitespace and newlines',
			"={{ $fromAI (\n  'a' ,\n  'b'\n) }}",
			[{ key: 'a', description: 'b', type: 'string' }],
		],
		[
			'comments between arguments',
			"={{ $fromAI(/* key */ 'a', // d\n 'b') }}",
			[{ key: 'a', description: 'b', type: 'string' }],
		],
		// One lexer for the call and its arguments: JavaScript's line terminators and whitespace.
		[
			'a line comment ends at CR, as in JavaScript',
			"={{ $fromAI('a', 'b' // c\r, 'number') }}",
			[{ key: 'a', description: 'b', type: 'number' }],
		],
		[
			'a line comment ends at U+2028',
			"={{ $fromAI('a', 'b' // c\u2028, 'number') }}",
			[{ key: 'a', description: 'b', type: 'number' }],
		],
		[
			'NBSP and BOM after an argument are whitespace',
			"={{ $fromAI('a'\u00a0, 'b'\ufeff, number\u2029) }}",
			[{ key: 'a', description: 'b', type: 'number' }],
		],
		[
			'trailing comma',
			"={{ $fromAI('a', 'b',) }}",
			[{ key: 'a', description: 'b', type: 'string' }],
		],
		[
			'two segments',
			"=To {{ $fromAI('to') }} cc {{ $fromAI('cc') }}",
			[
				{ key: 'to', type: 'string' },
				{ key: 'cc', type: 'string' },
			],
		],
		[
			'two calls in one segment',
			"={{ $fromAI('a') + $fromAI('b') }}",
			[
				{ key: 'a', type: 'string' },
				{ key: 'b', type: 'string' },
			],
		],
		[
			'inside ${} of a template',
			"={{ `Hi ${ $fromAI('name') }!` }}",
			[{ key: 'name', type: 'string' }],
		],
		['nested ${} braces', "={{ `${ {a: $fromAI('x')}.a }` }}", [{ key: 'x', type: 'string' }]],
		[
			'after division',
			"={{ 10 / $fromAI('n', '', 'number') / 2 }}",
			[{ key: 'n', description: '', type: 'number' }],
		],
		[
			'inside a call argument',
			"={{ String($fromAI('a')).trim() }}",
			[{ key: 'a', type: 'string' }],
		],
		[
			'after return keyword regex',
			"={{ (() => { return /x'/.test($fromAI('a')) })() }}",
			[{ key: 'a', type: 'string' }],
		],
		[
			'optional chaining elsewhere',
			"={{ $json?.x ?? $fromAI('a') }}",
			[{ key: 'a', type: 'string' }],
		],
		[
			'unclosed }} makes the rest code (as n8n)',
			"={{ $fromAI('a')",
			[{ key: 'a', type: 'string' }],
		],
		[
			'key with hyphen and digits',
			"={{ $fromAI('user-id_2') }}",
			[{ key: 'user-id_2', type: 'string' }],
		],
		[
			'64-character key',
			`={{ $fromAI('${'k'.repeat(64)}') }}`,
			[{ key: 'k'.repeat(64), type: 'string' }],
		],
		[
			'undefined description keeps default type',
			"={{ $fromAI('a', undefined, 'number') }}",
			[{ key: 'a', type: 'number' }],
		],
	])('%s', (_name, value, expected) => {
		expect(meaning(value)).toEqual(expected);
	});
});

describe('findFromAICalls: phantom markers n8n finds and we do not', () => {
	test.each([
		['plain text outside {{ }}', "=Use $fromAI('x') like this"],
		['value without any {{ }}', "$fromAI('x')"],
		['a line comment', "={{ 1 // $fromAI('x')\n }}"],
		['a block comment', "={{ /* $fromAI('x') */ 1 }}"],
		['a single-quoted string', '={{ \'call $fromAI("x")\' }}'],
		['a double-quoted string', '={{ "call $fromAI(\'x\')" }}'],
		['template-literal text', "={{ `text $fromAI('x') more` }}"],
		['a regex literal', "={{ /$fromAI('x')/.test($json.a) }}"],
		['a member call', "={{ helpers.$fromAI('x') }}"],
		['an optional member call', "={{ helpers?.$fromAI('x') }}"],
		['a longer identifier', "={{ my$fromAI('x') }}"],
		['a longer identifier after', "={{ $fromAIx('x') }}"],
		['escaped {{', "=\\{{ $fromAI('x') }}"],
		['Code-node source (string literal)', '={{ $json.code === \'const v = $fromAI("k")\' }}'],
	])('%s', (_name, value) => {
		expect(findFromAICalls(value)).toEqual([]);
	});

	test('$fromAI( inside a description is text, not a second marker', () => {
		expect(meaning("={{ $fromAI('a', 'use $fromAI(\\'b\\') style') }}")).toEqual([
			{ key: 'a', description: "use $fromAI('b') style", type: 'string' },
		]);
	});
});

describe('findFromAICalls: arguments as JavaScript reads them', () => {
	test.each([
		['\\t escape', "={{ $fromAI('a', 'tab\\there') }}", 'tab\there'],
		['\\n escape', "={{ $fromAI('a', 'x\\ny') }}", 'x\ny'],
		['escaped quote', "={{ $fromAI('a', 'it\\'s') }}", "it's"],
		['escaped backslash', "={{ $fromAI('a', 'a\\\\b') }}", 'a\\b'],
		['\\u escape', "={{ $fromAI('a', '\\u00e9t\\u00e9') }}", 'été'],
		['\\u{} escape', "={{ $fromAI('a', '\\u{1F600}') }}", '😀'],
		['\\x escape', "={{ $fromAI('a', '\\x41') }}", 'A'],
		['unknown escape is the character', "={{ $fromAI('a', '\\q') }}", 'q'],
		['template literal escapes', "={{ $fromAI('a', `a\\`b`) }}", 'a`b'],
		['empty description kept', "={{ $fromAI('a', '') }}", ''],
	])('%s', (_name, value, description) => {
		expect(findFromAICalls(value)[0].description).toBe(description);
	});

	test.each([
		['bare identifier type', "={{ $fromAI('a', '', number) }}", 'number'],
		['uppercase type', "={{ $fromAI('a', '', 'NUMBER') }}", 'number'],
		['mixed-case identifier type', "={{ $fromAI('a', '', Json) }}", 'json'],
		['default type', "={{ $fromAI('a', '') }}", 'string'],
	])('type: %s', (_name, value, type) => {
		expect(findFromAICalls(value)[0].type).toBe(type);
	});

	test.each([
		['string default', "={{ $fromAI('a', '', 'string', 'x') }}", 'x'],
		['number default stringified for string', "={{ $fromAI('a', '', 'string', 5) }}", '5'],
		['boolean default stringified for string', "={{ $fromAI('a', '', 'string', true) }}", 'true'],
		['object default as JSON for string', "={{ $fromAI('a', '', 'string', {b: 1}) }}", '{"b":1}'],
		['negative number', "={{ $fromAI('a', '', 'number', -2.5) }}", -2.5],
		['numeric string for number', "={{ $fromAI('a', '', 'number', ' 10 ') }}", 10],
		['zero', "={{ $fromAI('a', '', 'number', 0) }}", 0],
		['boolean literal', "={{ $fromAI('a', '', 'boolean', false) }}", false],
		['boolean string any case', "={{ $fromAI('a', '', 'boolean', 'TRUE') }}", true],
		[
			'object literal with commas',
			"={{ $fromAI('a', '', 'json', { b: 1, c: 'x, y', d: [1, 2] }) }}",
			{ b: 1, c: 'x, y', d: [1, 2] },
		],
		[
			'quoted object keys',
			"={{ $fromAI('a', '', 'json', { 'b c': 1, \"d\": null }) }}",
			{ 'b c': 1, d: null },
		],
		[
			'array literal',
			"={{ $fromAI('a', '', 'json', [1, 'two', { three: 3 }]) }}",
			[1, 'two', { three: 3 }],
		],
		['JSON string parsed', "={{ $fromAI('a', '', 'json', '{\"b\": [1]}') }}", { b: [1] }],
		['json null', "={{ $fromAI('a', '', 'json', null) }}", null],
		['json null as string', "={{ $fromAI('a', '', 'json', 'null') }}", null],
	])('default: %s', (_name, value, defaultValue) => {
		expect(findFromAICalls(value)[0].defaultValue).toEqual(defaultValue);
	});

	test('__proto__ in an object default stays data', () => {
		const marker = findFromAICalls(
			"={{ $fromAI('a', '', 'json', { __proto__: { polluted: 1 } }) }}",
		)[0];
		expect(Object.getPrototypeOf(marker.defaultValue)).toBe(Object.prototype);
		expect(Object.keys(marker.defaultValue as object)).toEqual(['__proto__']);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe('findFromAICalls: spans', () => {
	test.each([
		// value, start, end, segment, wholeSegment, wholeValue
		["={{ $fromAI('a') }}", 4, 16, { start: 1, end: 19 }, true, true],
		["={{$fromAI('a')}}", 3, 15, { start: 1, end: 17 }, true, true],
		["={{ \n $fromAI('a') \t}}", 6, 18, { start: 1, end: 22 }, true, true],
		["=x {{ $fromAI('a') }}", 6, 18, { start: 3, end: 21 }, true, false],
		["={{ $fromAI('a') }} ", 4, 16, { start: 1, end: 19 }, true, false],
		["={{ $fromAI('a') + 1 }}", 4, 16, { start: 1, end: 23 }, false, false],
		["{{ $fromAI('a') }}", 3, 15, { start: 0, end: 18 }, true, false],
		["={{ $fromAI('a')", 4, 16, { start: 1, end: 16 }, true, false],
	])('%j', (value, start, end, segment, wholeSegment, wholeValue) => {
		const [marker] = findFromAICalls(value);
		expect({
			start: marker.start,
			end: marker.end,
			segment: marker.segment,
			wholeSegment: marker.wholeSegment,
			wholeValue: marker.wholeValue,
		}).toEqual({
			start,
			end,
			segment,
			wholeSegment,
			wholeValue,
		});
		expect(value.slice(marker.start, marker.end)).toMatch(/^\$fromAI\(.*\)$/s);
	});
});

describe('findFromAICalls: errors say what was found, what is allowed, and where', () => {
	test.each([
		[
			'$FROMAI (n8n extracts it, runtime has no such function)',
			"={{ $FROMAI('a') }}",
			'FROM_AI_WRONG_CASE',
			4,
			/Did you mean '\$fromAI\('/,
		],
		['$FromAI', "={{ 1 + $FromAI('a') }}", 'FROM_AI_WRONG_CASE', 8, /\$FromAI/],
		[
			'reference without a call',
			'={{ [1].map($fromAI) }}',
			'FROM_AI_NOT_CALLED',
			12,
			/direct call/,
		],
		['unclosed call', "={{ $fromAI('a', 'b' }}", 'FROM_AI_UNCLOSED_CALL', 4, /closing '\)'/],
		['no key', '={{ $fromAI() }}', 'FROM_AI_MISSING_KEY', 4, /without a key/],
		[
			'unquoted key (n8n passes it to runtime)',
			'={{ $fromAI(email) }}',
			'FROM_AI_KEY_NOT_LITERAL',
			12,
			/Did you mean 'email'/,
		],
		['number key', '={{ $fromAI(5) }}', 'FROM_AI_KEY_NOT_LITERAL', 12, /string literal/],
		[
			'template key with ${}',
			'={{ $fromAI(`a${1}`) }}',
			'FROM_AI_KEY_NOT_LITERAL',
			12,
			/no \$\{…\}/,
		],
		['empty key', "={{ $fromAI('') }}", 'FROM_AI_INVALID_KEY', 12, /1 to 64 characters/],
		['key with space', "={{ $fromAI('a b') }}", 'FROM_AI_INVALID_KEY', 12, /Found key 'a b'/],
		[
			'65-character key',
			`={{ $fromAI('${'k'.repeat(65)}') }}`,
			'FROM_AI_INVALID_KEY',
			12,
			/1 to 64/,
		],
		[
			'reserved key __proto__',
			"={{ $fromAI('__proto__') }}",
			'FROM_AI_RESERVED_KEY',
			12,
			/reserved/,
		],
		[
			'reserved key constructor',
			"={{ $fromAI('constructor') }}",
			'FROM_AI_RESERVED_KEY',
			12,
			/reserved/,
		],
		[
			'non-literal description (n8n keeps source text)',
			"={{ $fromAI('a', $json.d) }}",
			'FROM_AI_DESCRIPTION_NOT_LITERAL',
			17,
			/string literal/,
		],
		[
			'concatenated description',
			"={{ $fromAI('a', 'x' + 'y') }}",
			'FROM_AI_DESCRIPTION_NOT_LITERAL',
			17,
			/`'x' \+ 'y'`/,
		],
		[
			'unknown type',
			"={{ $fromAI('a', '', 'integer') }}",
			'FROM_AI_INVALID_TYPE',
			21,
			/Found type 'integer'; allowed: string, number, boolean, json/,
		],
		[
			'non-literal type',
			"={{ $fromAI('a', '', $json.t) }}",
			'FROM_AI_TYPE_NOT_LITERAL',
			21,
			/one of string/,
		],
		[
			'non-literal default',
			"={{ $fromAI('a', '', 'string', $json.x) }}",
			'FROM_AI_DEFAULT_NOT_LITERAL',
			31,
			/literal/,
		],
		[
			'default calling a function',
			"={{ $fromAI('a', '', 'string', f()) }}",
			'FROM_AI_DEFAULT_NOT_LITERAL',
			31,
			/function call/,
		],
		[
			'shorthand property in default',
			"={{ $fromAI('a', '', 'json', { b }) }}",
			'FROM_AI_DEFAULT_NOT_LITERAL',
			29,
			/shorthand/,
		],
		[
			"number default '' (n8n: 0)",
			"={{ $fromAI('a', '', 'number', '') }}",
			'FROM_AI_INVALID_DEFAULT',
			31,
			/finite number/,
		],
		[
			"number default 'abc'",
			"={{ $fromAI('a', '', 'number', 'abc') }}",
			'FROM_AI_INVALID_DEFAULT',
			31,
			/finite number/,
		],
		[
			'boolean default 1 (n8n: the number 1)',
			"={{ $fromAI('a', '', 'boolean', 1) }}",
			'FROM_AI_INVALID_DEFAULT',
			32,
			/true or false/,
		],
		[
			"boolean default 'yes'",
			"={{ $fromAI('a', '', 'boolean', 'yes') }}",
			'FROM_AI_INVALID_DEFAULT',
			32,
			/true or false/,
		],
		[
			'json default not JSON',
			"={{ $fromAI('a', '', 'json', 'nope') }}",
			'FROM_AI_INVALID_DEFAULT',
			29,
			/non-empty object or array/,
		],
		[
			'json default a number',
			"={{ $fromAI('a', '', 'json', 5) }}",
			'FROM_AI_INVALID_DEFAULT',
			29,
			/non-empty object or array/,
		],
		[
			'json default empty object',
			"={{ $fromAI('a', '', 'json', {}) }}",
			'FROM_AI_INVALID_DEFAULT',
			29,
			/non-empty/,
		],
		[
			'string default null',
			"={{ $fromAI('a', '', 'string', null) }}",
			'FROM_AI_INVALID_DEFAULT',
			31,
			/null is not a string/,
		],
		[
			'5th argument (n8n ignores it)',
			"={{ $fromAI('a', 'b', 'string', 'c', 'd') }}",
			'FROM_AI_TOO_MANY_ARGUMENTS',
			37,
			/at most 4/,
		],
		[
			'empty middle argument',
			"={{ $fromAI('a', , 'string') }}",
			'FROM_AI_SYNTAX',
			17,
			/empty argument/,
		],
		[
			'unparsable argument',
			"={{ $fromAI('a', 'b' 'c') }}",
			'FROM_AI_SYNTAX',
			17,
			/one value|Cannot parse/,
		],
	])('%s', (_name, value, code, index, message) => {
		const error = errorOf(value);
		expect(error.code).toBe(code);
		expect(error.index).toBe(index);
		expect(error.message).toMatch(message);
		expect(error.message).toMatch(new RegExp(`^position ${index}: Found`));
	});

	test('the first error by position is thrown when there are several', () => {
		const error = errorOf("={{ $fromAI('a', x) + $FROMAI('b') }}");
		expect(error.code).toBe('FROM_AI_DESCRIPTION_NOT_LITERAL');
	});
});

describe('findFromAICalls agrees with n8n-workflow where n8n is right', () => {
	test.each([
		"={{ $fromAI('email') }}",
		"={{ $fromAI('email', 'The recipient') }}",
		"={{ $fromAI('count', 'How many', 'number') }}",
		"={{ $fromAI('count', 'How many', 'number', 10) }}",
		"={{ $fromAI('flag', 'On?', 'boolean', true) }}",
		"={{ $fromAI('flag', 'On?', 'boolean', 'false') }}",
		"={{ $fromAI('data', 'Payload', 'json') }}",
		"={{ $fromAI('data', 'Payload', 'json', '{\"a\":1}') }}",
		"={{ $fromAI('name', 'Name', 'string', 'Anon') }}",
		'={{ $fromAI("a", "double quotes", "STRING") }}',
		"={{ $fromAI('a', `backtick`) }}",
		"=Dear {{ $fromAI('name') }}, your order {{ $fromAI('order', 'Order id', 'number') }} shipped.",
		"={{ $fromai('lower') }} {{ $fromAi('mixed') }}",
		"={{ $fromAI('a', 'with, comma', 'string') }}",
		"={{ $fromAI('a', 'with (parens)') }}",
	])('%s', (value) => {
		const ours = meaning(value);
		const theirs = extractFromAICalls(value).map(({ key, description, type, defaultValue }) => {
			const result: Record<string, unknown> = { key, type };
			if (description !== undefined) result.description = description;
			if (defaultValue !== undefined) result.defaultValue = defaultValue;
			return result;
		});
		expect(ours).toEqual(theirs);
	});

	test.each([
		['phantom from plain text', "=Use $fromAI('x') here"],
		['phantom from a comment', "={{ 1 /* $fromAI('x') */ }}"],
		['phantom from a string', '={{ \'say $fromAI("x")\' }}'],
	])('n8n differs: %s', (_name, value) => {
		expect(extractFromAICalls(value).length).toBeGreaterThan(0);
		expect(findFromAICalls(value)).toEqual([]);
	});

	test.each([
		[
			'drops backslashes',
			"={{ $fromAI('a', 'tab\\there') }}",
			'description',
			'tabthere',
			'tab\there',
		],
		[
			'splits an object default at its comma',
			"={{ $fromAI('a', 'd', 'json', {b: 1, c: 2}) }}",
			'defaultValue',
			'{b: 1',
			{ b: 1, c: 2 },
		],
	])('n8n differs: %s', (_name, value, field, theirs, ours) => {
		expect((extractFromAICalls(value)[0] as unknown as Record<string, unknown>)[field]).toEqual(
			theirs,
		);
		expect((findFromAICalls(value)[0] as unknown as Record<string, unknown>)[field]).toEqual(ours);
	});
});
