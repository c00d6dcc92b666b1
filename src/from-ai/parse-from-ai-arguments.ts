import jsep from 'jsep';
import jsepComment from '@jsep-plugin/comment';
import jsepObject from '@jsep-plugin/object';
import jsepTemplate from '@jsep-plugin/template';
import { FromAIError, type FromAIErrorCode } from '../errors/from-ai-error';
import { cookStringLiteral } from './cook-string-literal';
import { findClosingQuote } from './skip-quoted';
import { convertDefaultValue } from './convert-default-value';
import type { FromAIJsonValue, FromAIType } from './from-ai-marker';

// jsep keeps plugins in one registry per copy; registering twice is a no-op.
jsep.plugins.register(jsepObject, jsepTemplate, jsepComment);

/** The rule n8n checks when it builds the schema (create-node-as-tool `getSchema`). */
const KEY_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Keys n8n refuses at runtime (n8n-workflow `utils.ts` `unsafeObjectProperties`, checked by
 * `$fromAI` through `isSafeObjectProperty`): they resolve to inherited members.
 */
const RESERVED_KEYS = new Set([
	'__proto__', 'prototype', 'constructor', 'getPrototypeOf', 'setPrototypeOf', 'getOwnPropertyDescriptor',
	'getOwnPropertyDescriptors', 'defineProperty', 'defineProperties', 'mainModule', 'binding', '_linkedBinding',
	'_load', 'prepareStackTrace', '__lookupGetter__', '__lookupSetter__', '__defineGetter__', '__defineSetter__',
	'caller', 'callee', 'arguments', 'getBuiltinModule', 'dlopen', 'execve', 'loadEnvFile',
]);

const TYPES: readonly FromAIType[] = ['string', 'number', 'boolean', 'json'];
const MAX_ARGUMENTS = 4;

/** The arguments of one call, checked and converted. */
export interface FromAIArguments {
	key: string;
	description?: string;
	type: FromAIType;
	defaultValue?: FromAIJsonValue;
}

interface ArgumentSource {
	/** First significant character of the argument in the value. */
	start: number;
	text: string;
}

/** Marks "not a literal" while evaluating an AST; becomes a FromAIError with the argument's position. */
class NotLiteral {
	constructor(readonly what: string) {}
}

/**
 * Parses the arguments of the call whose parentheses are at `openParen` and `closeParen` in
 * `value`, with jsep (no eval). Errors carry `index` = position of the offending argument.
 *
 * @throws {FromAIError} when an argument breaks a rule: key (string literal matching
 * `/^[a-zA-Z0-9_-]{1,64}$/`, not reserved), description (string literal), type (literal or
 * bare identifier, one of string/number/boolean/json), default (a literal convertible to the
 * type), at most four arguments.
 */
export function parseFromAIArguments(value: string, callStart: number, openParen: number, closeParen: number): FromAIArguments {
	const sources = splitArguments(value, openParen + 1, closeParen);
	if (sources.length > MAX_ARGUMENTS) {
		fail('FROM_AI_TOO_MANY_ARGUMENTS', `Found ${sources.length} arguments; allowed: at most 4 — $fromAI(key, description, type, defaultValue). n8n silently ignores the extra ones.`, sources[MAX_ARGUMENTS].start);
	}
	if (sources.length === 0) {
		fail('FROM_AI_MISSING_KEY', "Found $fromAI() without a key. Allowed: a key string first, e.g. $fromAI('email').", callStart);
	}
	const [keySource, descriptionSource, typeSource, defaultSource] = sources;

	const keyNode = parseArgument(keySource);
	const key = stringLiteralOf(keyNode);
	if (key === undefined) {
		const hint = keyNode.type === 'Identifier' ? ` Did you mean '${String(keyNode.name)}' (quoted)?` : '';
		fail('FROM_AI_KEY_NOT_LITERAL', `Found key ${describe(keySource)}; allowed: a string literal such as 'email' (quotes required; no \${…}).${hint}`, keySource.start);
	}
	if (!KEY_PATTERN.test(key)) {
		fail('FROM_AI_INVALID_KEY', `Found key '${key}'; allowed: 1 to 64 characters, only letters, digits, '_' and '-'.`, keySource.start);
	}
	if (RESERVED_KEYS.has(key)) {
		fail('FROM_AI_RESERVED_KEY', `Found key '${key}', a reserved name that n8n refuses at runtime; choose another key (e.g. '${key.replace(/^_+/, '')}_value').`, keySource.start);
	}

	let description: string | undefined;
	if (descriptionSource) {
		const node = parseArgument(descriptionSource);
		if (!isUndefinedIdentifier(node)) {
			description = stringLiteralOf(node);
			if (description === undefined) {
				fail('FROM_AI_DESCRIPTION_NOT_LITERAL', `Found description ${describe(descriptionSource)}; allowed: a string literal (or undefined). The model never sees computed text.`, descriptionSource.start);
			}
		}
	}

	let type: FromAIType = 'string';
	if (typeSource) {
		const node = parseArgument(typeSource);
		if (!isUndefinedIdentifier(node)) {
			const written = node.type === 'Identifier' ? String(node.name) : stringLiteralOf(node);
			if (written === undefined) {
				fail('FROM_AI_TYPE_NOT_LITERAL', `Found type ${describe(typeSource)}; allowed: one of string, number, boolean, json (quoted or bare).`, typeSource.start);
			}
			const lower = written.toLowerCase() as FromAIType;
			if (!TYPES.includes(lower)) {
				fail('FROM_AI_INVALID_TYPE', `Found type '${written}'; allowed: string, number, boolean, json (any case).`, typeSource.start);
			}
			type = lower;
		}
	}

	let defaultValue: FromAIJsonValue | undefined;
	if (defaultSource) {
		const node = parseArgument(defaultSource);
		let literal: FromAIJsonValue | undefined;
		try {
			literal = isUndefinedIdentifier(node) ? undefined : evaluateLiteral(node);
		} catch (error) {
			if (!(error instanceof NotLiteral)) throw error;
			fail('FROM_AI_DEFAULT_NOT_LITERAL', `Found default ${describe(defaultSource)} (${error.what}); allowed: a literal — string, number, boolean, null, or an object/array of literals.`, defaultSource.start);
		}
		if (literal !== undefined) {
			const converted = convertDefaultValue(literal, type);
			if (!converted.ok) fail('FROM_AI_INVALID_DEFAULT', `Found default ${describe(defaultSource)} for type '${type}'; allowed: ${converted.allowed}.`, defaultSource.start);
			defaultValue = converted.value;
		}
	}

	const result: FromAIArguments = { key, type };
	if (description !== undefined) result.description = description;
	if (defaultValue !== undefined) result.defaultValue = defaultValue;
	return result;
}

function fail(code: FromAIErrorCode, detail: string, index: number): never {
	throw new FromAIError(code, detail, { index });
}

function describe(source: ArgumentSource): string {
	const text = source.text.length > 60 ? `${source.text.slice(0, 57)}...` : source.text;
	return `\`${text}\``;
}

function parseArgument(source: ArgumentSource): jsep.Expression {
	const simple = parseSimpleArgument(source.text);
	if (simple) return simple;
	let node: jsep.Expression;
	try {
		node = jsep(source.text);
	} catch (error) {
		const parseError = error as { index?: number; description?: string; message?: string };
		const offset = typeof parseError.index === 'number' ? parseError.index : 0;
		const reason = parseError.description ?? parseError.message ?? 'syntax error';
		return fail('FROM_AI_SYNTAX', `Cannot parse argument ${describe(source)}: ${reason}. Allowed: literals separated by commas.`, source.start + Math.min(offset, source.text.length));
	}
	if (node.type === 'Compound') {
		fail('FROM_AI_SYNTAX', `Found ${describe(source)} where one value was expected. Allowed: literals separated by commas.`, source.start);
	}
	return node;
}

const SIMPLE_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const SIMPLE_NUMBER = /^\d+(?:\.\d+)?$/;

/**
 * The common arguments — a quoted string, a bare word, a plain number — read without jsep
 * (a third of the scan's time went to jsep on these). Anything else returns undefined and
 * goes to jsep. Produces the same node shapes jsep does; a string carries its cooked value.
 */
function parseSimpleArgument(text: string): jsep.Expression | undefined {
	let end = text.length;
	while (end > 0 && isPlainSpace(text.charCodeAt(end - 1))) end--;
	const first = text.charCodeAt(0);
	if (first === 39 || first === 34) {
		if (findClosingQuote(text, 0, end, first === 39 ? "'" : '"') !== end - 1) return undefined;
		const body = text.slice(1, end - 1);
		// A raw line break is a syntax error: let jsep report it.
		if (body.indexOf('\n') !== -1 || body.indexOf('\r') !== -1) return undefined;
		const cooked = cookStringLiteral(body, false);
		return cooked === undefined ? undefined : { type: 'Literal', value: cooked, raw: text.slice(0, end), cooked: true };
	}
	const word = end === text.length ? text : text.slice(0, end);
	if (SIMPLE_IDENTIFIER.test(word)) {
		if (word === 'true' || word === 'false') return { type: 'Literal', value: word === 'true', raw: word };
		if (word === 'null') return { type: 'Literal', value: null, raw: word };
		if (word === 'this') return undefined;
		return { type: 'Identifier', name: word };
	}
	if (SIMPLE_NUMBER.test(word)) return { type: 'Literal', value: Number(word), raw: word };
	return undefined;
}

function isPlainSpace(code: number): boolean {
	return code === 32 || (code >= 9 && code <= 13);
}

function isUndefinedIdentifier(node: jsep.Expression): boolean {
	return node.type === 'Identifier' && node.name === 'undefined';
}

/** The value of a string literal or a template literal without `${}`; otherwise undefined. */
function stringLiteralOf(node: jsep.Expression): string | undefined {
	if (node.type === 'Literal' && typeof node.value === 'string') {
		if (node.cooked === true) return node.value;
		return cookStringLiteral(String(node.raw).slice(1, -1), false);
	}
	if (node.type === 'TemplateLiteral') {
		const template = node as unknown as { quasis: { value: { raw: string } }[]; expressions: unknown[] };
		if (template.expressions.length > 0) return undefined;
		return cookStringLiteral(template.quasis[0]?.value.raw ?? '', true);
	}
	return undefined;
}

/** Deeper defaults are refused rather than risking the stack. */
const MAX_LITERAL_DEPTH = 100;

/** Evaluates a literal AST (strings, numbers, booleans, null, arrays, objects). */
function evaluateLiteral(node: jsep.Expression, depth = 0): FromAIJsonValue {
	if (depth > MAX_LITERAL_DEPTH) throw new NotLiteral(`nesting deeper than ${MAX_LITERAL_DEPTH}`);
	switch (node.type) {
		case 'Literal': {
			if (typeof node.value === 'string') {
				const cooked = stringLiteralOf(node);
				if (cooked === undefined) throw new NotLiteral('malformed escape');
				return cooked;
			}
			if (node.value === null || typeof node.value === 'number' || typeof node.value === 'boolean') return node.value;
			throw new NotLiteral('unsupported literal');
		}
		case 'TemplateLiteral': {
			const cooked = stringLiteralOf(node);
			if (cooked === undefined) throw new NotLiteral('a template with ${…} or a malformed escape');
			return cooked;
		}
		case 'UnaryExpression': {
			const argument = node.argument as jsep.Expression;
			if ((node.operator === '-' || node.operator === '+') && argument.type === 'Literal' && typeof argument.value === 'number') {
				return node.operator === '-' ? -argument.value : argument.value;
			}
			throw new NotLiteral(`operator ${String(node.operator)}`);
		}
		case 'ArrayExpression': {
			const elements = node.elements as (jsep.Expression | null)[];
			return elements.map((element) => {
				if (element === null) throw new NotLiteral('an array hole');
				return evaluateLiteral(element, depth + 1);
			});
		}
		case 'ObjectExpression': {
			const result: { [key: string]: FromAIJsonValue } = {};
			for (const property of node.properties as jsep.Expression[]) {
				if (property.type !== 'Property' || property.computed || property.shorthand) {
					throw new NotLiteral(property.shorthand ? 'a shorthand property' : 'a computed or spread property');
				}
				const keyNode = property.key as jsep.Expression;
				let name: string | undefined;
				if (keyNode.type === 'Identifier') name = String(keyNode.name);
				else if (keyNode.type === 'Literal') name = typeof keyNode.value === 'string' ? stringLiteralOf(keyNode) : String(keyNode.value);
				if (name === undefined) throw new NotLiteral('a non-literal property name');
				// defineProperty: a key named `__proto__` must stay data, not replace the prototype.
				Object.defineProperty(result, name, { value: evaluateLiteral(property.value as jsep.Expression, depth + 1), enumerable: true, writable: true, configurable: true });
			}
			return result;
		}
		case 'Identifier':
			throw new NotLiteral(`the variable ${String(node.name)}`);
		case 'CallExpression':
			throw new NotLiteral('a function call');
		default:
			throw new NotLiteral(`a ${node.type}`);
	}
}

/**
 * Splits the text between the call's parentheses at top-level commas (outside strings,
 * templates, comments and brackets). A trailing comma is allowed, as in JavaScript.
 */
function splitArguments(value: string, from: number, to: number): ArgumentSource[] {
	const sources: ArgumentSource[] = [];
	const state: SplitState = { depth: 0, templates: [] };
	let partStart = from;
	let position = from;
	while (position < to) {
		const code = value.charCodeAt(position);
		if (code === 39 || code === 34) {
			position = findClosingQuote(value, position, to, code === 39 ? "'" : '"') + 1;
		} else if (code === 96) {
			position = skipTemplateText(value, position + 1, to, state);
		} else if (code === 47 && value.charCodeAt(position + 1) === 47) {
			while (position < to && value.charCodeAt(position) !== 10) position++;
		} else if (code === 47 && value.charCodeAt(position + 1) === 42) {
			const close = value.indexOf('*/', position + 2);
			position = close === -1 || close > to ? to : close + 2;
		} else if (code === 40 || code === 91 || code === 123) {
			state.depth++;
			position++;
		} else if (code === 125 && state.depth === 0 && state.templates.length > 0) {
			state.depth = state.templates.pop() ?? 0;
			position = skipTemplateText(value, position + 1, to, state);
		} else if (code === 41 || code === 93 || code === 125) {
			state.depth--;
			position++;
		} else if (code === 44 && state.depth === 0 && state.templates.length === 0) {
			pushArgument(sources, value, partStart, position);
			partStart = position + 1;
			position++;
		} else {
			position++;
		}
	}
	// After the last comma only trivia: a trailing comma `f(a,)`, fine as in JavaScript.
	if (skipTrivia(value, partStart, to) < to) pushArgument(sources, value, partStart, to);
	const empty = sources.find((source) => source.text === '');
	if (empty) fail('FROM_AI_SYNTAX', 'Found an empty argument between commas. Allowed: literals separated by commas.', empty.start);
	return sources;
}

interface SplitState {
	/** Bracket depth inside the arguments. */
	depth: number;
	/** Bracket depth saved when entering each `${` of a template literal. */
	templates: number[];
}

function pushArgument(sources: ArgumentSource[], value: string, from: number, to: number): void {
	const start = skipTrivia(value, from, to);
	sources.push({ start, text: value.slice(start, to) });
}

/** Skips template text from `at`; returns where code resumes (after '`' or `${`). */
function skipTemplateText(value: string, at: number, to: number, state: SplitState): number {
	while (at < to) {
		const code = value.charCodeAt(at);
		if (code === 92) at += 2;
		else if (code === 96) return at + 1;
		else if (code === 36 && value.charCodeAt(at + 1) === 123) {
			state.templates.push(state.depth);
			state.depth = 0;
			return at + 2;
		} else at++;
	}
	return to;
}

/** Skips whitespace and comments from `from`, not past `to`. */
function skipTrivia(value: string, from: number, to: number): number {
	let position = from;
	while (position < to) {
		const code = value.charCodeAt(position);
		if (code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0xfeff) {
			position++;
		} else if (code === 47 && value.charCodeAt(position + 1) === 47) {
			while (position < to && value.charCodeAt(position) !== 10) position++;
		} else if (code === 47 && value.charCodeAt(position + 1) === 42) {
			const close = value.indexOf('*/', position + 2);
			position = close === -1 || close > to ? to : close + 2;
		} else {
			break;
		}
	}
	return position;
}
