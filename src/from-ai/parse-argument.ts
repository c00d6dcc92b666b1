import jsep from 'jsep';
import jsepComment from '@jsep-plugin/comment';
import jsepObject from '@jsep-plugin/object';
import jsepTemplate from '@jsep-plugin/template';
import { FromAIError } from '../errors/from-ai-error';
import { cookStringLiteral } from './cook-string-literal';
import { findClosingQuote, isWhitespace } from './javascript-lexing';
import { describeArgument, type ArgumentSource } from './split-arguments';

// jsep keeps plugins in one registry per copy; registering twice is a no-op.
jsep.plugins.register(jsepObject, jsepTemplate, jsepComment);

const SIMPLE_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const SIMPLE_NUMBER = /^\d+(?:\.\d+)?$/;

/**
 * Parses one argument's text into a jsep expression (no eval). A string literal read here
 * carries `cooked: true`: its value already has JavaScript's escapes applied.
 *
 * @throws {FromAIError} FROM_AI_SYNTAX when the text is not one expression; `index` points
 *   at the spot jsep stopped at.
 */
export function parseArgument(source: ArgumentSource): jsep.Expression {
	const simple = parseSimpleArgument(source.text);
	if (simple) return simple;
	let node: jsep.Expression;
	try {
		node = jsep(source.text);
	} catch (error) {
		const parseError = error as { index?: number; description?: string; message?: string };
		const offset = typeof parseError.index === 'number' ? parseError.index : 0;
		const reason = parseError.description ?? parseError.message ?? 'syntax error';
		throw new FromAIError(
			'FROM_AI_SYNTAX',
			`Cannot parse argument ${describeArgument(source)}: ${reason}. Allowed: literals separated by commas.`,
			{ index: source.start + Math.min(offset, source.text.length) },
		);
	}
	if (node.type === 'Compound') {
		throw new FromAIError(
			'FROM_AI_SYNTAX',
			`Found ${describeArgument(source)} where one value was expected. Allowed: literals separated by commas.`,
			{ index: source.start },
		);
	}
	return node;
}

/**
 * The common arguments — a quoted string, a bare word, a plain number — read without jsep
 * (a third of the scan's time went to jsep on these). Anything else returns undefined and
 * goes to jsep. Produces the same node shapes jsep does; a string carries its cooked value.
 */
function parseSimpleArgument(text: string): jsep.Expression | undefined {
	let end = text.length;
	while (end > 0 && isWhitespace(text.charCodeAt(end - 1))) end--;
	const first = text.charCodeAt(0);
	if (first === 39 || first === 34) {
		if (findClosingQuote(text, 0, end, first === 39 ? "'" : '"') !== end - 1) return undefined;
		const body = text.slice(1, end - 1);
		// A raw line break is a syntax error: let jsep report it.
		if (body.indexOf('\n') !== -1 || body.indexOf('\r') !== -1) return undefined;
		const cooked = cookStringLiteral(body, false);
		return cooked === undefined
			? undefined
			: { type: 'Literal', value: cooked, raw: text.slice(0, end), cooked: true };
	}
	const word = end === text.length ? text : text.slice(0, end);
	if (SIMPLE_IDENTIFIER.test(word)) {
		if (word === 'true' || word === 'false')
			return { type: 'Literal', value: word === 'true', raw: word };
		if (word === 'null') return { type: 'Literal', value: null, raw: word };
		if (word === 'this') return undefined;
		return { type: 'Identifier', name: word };
	}
	if (SIMPLE_NUMBER.test(word)) return { type: 'Literal', value: Number(word), raw: word };
	return undefined;
}
