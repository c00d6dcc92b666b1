import { FromAIError } from '../errors/from-ai-error';
import { findClosingQuote, findTemplateTextEnd, skipTrivia } from './javascript-lexing';

/** One argument of a call as written: its text and where it starts in the value. */
export interface ArgumentSource {
	/** First significant character of the argument in the value. */
	start: number;
	text: string;
}

const enum Char {
	Quote = 34,
	Apostrophe = 39,
	OpenParen = 40,
	CloseParen = 41,
	Asterisk = 42,
	Comma = 44,
	Slash = 47,
	OpenBracket = 91,
	CloseBracket = 93,
	Backtick = 96,
	OpenBrace = 123,
	CloseBrace = 125,
}

interface SplitState {
	/** Bracket depth inside the arguments. */
	depth: number;
	/** Bracket depth saved when entering each `${` of a template literal. */
	templates: number[];
}

/**
 * Splits the text between a call's parentheses, `value[from, to)`, at top-level commas
 * (outside strings, templates, comments and brackets). A trailing comma is allowed, as in
 * JavaScript. Each argument starts at its first significant character.
 *
 * @throws {FromAIError} FROM_AI_SYNTAX for an empty argument between commas.
 */
export function splitArguments(value: string, from: number, to: number): ArgumentSource[] {
	const sources: ArgumentSource[] = [];
	const state: SplitState = { depth: 0, templates: [] };
	let partStart = from;
	let position = from;
	while (position < to) {
		const code = value.charCodeAt(position);
		if (code === Char.Apostrophe || code === Char.Quote) {
			position = findClosingQuote(value, position, to, code === Char.Apostrophe ? "'" : '"') + 1;
		} else if (code === Char.Backtick) {
			position = skipTemplateText(value, position + 1, to, state);
		} else if (
			code === Char.Slash &&
			isCommentStart(value.charCodeAt(position + 1)) &&
			position + 1 < to
		) {
			position = skipTrivia(value, position, to);
		} else if (code === Char.OpenParen || code === Char.OpenBracket || code === Char.OpenBrace) {
			state.depth++;
			position++;
		} else if (code === Char.CloseBrace && state.depth === 0 && state.templates.length > 0) {
			state.depth = state.templates.pop() ?? 0;
			position = skipTemplateText(value, position + 1, to, state);
		} else if (code === Char.CloseParen || code === Char.CloseBracket || code === Char.CloseBrace) {
			state.depth--;
			position++;
		} else if (code === Char.Comma && state.depth === 0 && state.templates.length === 0) {
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
	if (empty)
		throw new FromAIError(
			'FROM_AI_SYNTAX',
			'Found an empty argument between commas. Allowed: literals separated by commas.',
			{ index: empty.start },
		);
	return sources;
}

/** An argument's text for a message, in backticks, cut at 60 characters. */
export function describeArgument(source: ArgumentSource): string {
	const text = source.text.length > 60 ? `${source.text.slice(0, 57)}...` : source.text;
	return `\`${text}\``;
}

/** `/` then this starts a comment. */
function isCommentStart(next: number): boolean {
	return next === Char.Slash || next === Char.Asterisk;
}

function pushArgument(sources: ArgumentSource[], value: string, from: number, to: number): void {
	const start = skipTrivia(value, from, to);
	sources.push({ start, text: value.slice(start, to) });
}

/** Skips template text from `from`; returns where code resumes (after '`' or `${`). */
function skipTemplateText(value: string, from: number, to: number, state: SplitState): number {
	const end = findTemplateTextEnd(value, from, to);
	if (end === to) return to;
	if (value.charCodeAt(end) === Char.Backtick) return end + 1;
	state.templates.push(state.depth);
	state.depth = 0;
	return end + 2;
}
