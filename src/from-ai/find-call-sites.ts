import { FromAIError } from '../errors/from-ai-error';
import {
	findClosingQuote,
	findRegexLiteralEnd,
	findTemplateTextEnd,
	isIdentifierPart,
	isIdentifierStart,
	isWhitespace,
	skipTrivia,
} from './javascript-lexing';
import { readFromAIReference } from './read-from-ai-reference';

/** A `$fromAI(` call found by the lexer, before its arguments are parsed. */
export interface CallSite {
	/** Position of `$`. */
	start: number;
	/** Position of `(`. */
	openParen: number;
	/** Position of the matching `)`. */
	closeParen: number;
}

/** After these keywords an expression starts, so `/` begins a regex literal. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
	'return',
	'typeof',
	'instanceof',
	'in',
	'of',
	'new',
	'delete',
	'void',
	'throw',
	'case',
	'do',
	'else',
	'yield',
	'await',
]);

const enum Previous {
	/** Start of code, an operator or punctuation: an expression may start (regex allowed). */
	Operator,
	/** A value ended (identifier, literal, `)`, `]`, `}`): `/` is division. */
	Value,
	/** `.` or `?.`: the next identifier is a member name. */
	Dot,
}

const enum Char {
	Quote = 34,
	Dollar = 36,
	Apostrophe = 39,
	OpenParen = 40,
	CloseParen = 41,
	Asterisk = 42,
	Dot = 46,
	Slash = 47,
	Zero = 48,
	Nine = 57,
	Question = 63,
	CloseBracket = 93,
	Backtick = 96,
	OpenBrace = 123,
	CloseBrace = 125,
}

/**
 * Finds the `$fromAI(…)` calls in one code segment `value[codeStart, codeEnd)` with a
 * single-pass JavaScript lexer: string literals, template-literal text, comments and
 * regex literals are skipped; code inside `${…}` is scanned. Only the global identifier
 * counts (not `x.$fromAI`, not `my$fromAI`). Problems are pushed to `errors` and the scan
 * goes on, so a caller can list every problem.
 */
export function findCallSites(
	value: string,
	codeStart: number,
	codeEnd: number,
	errors: FromAIError[],
): CallSite[] {
	return new CallSiteLexer(value, codeStart, codeEnd, errors).run();
}

/** The lexer's state; methods rather than closures so nothing is allocated per call but this. */
class CallSiteLexer {
	private readonly calls: CallSite[] = [];
	/** One entry per open `(`: the index in `calls` it opens, or -1. */
	private readonly parens: number[] = [];
	/** Brace depth saved when entering each `${`. */
	private readonly templates: number[] = [];
	private braceDepth = 0;
	private previous = Previous.Operator;

	constructor(
		private readonly value: string,
		private readonly codeStart: number,
		private readonly codeEnd: number,
		private readonly errors: FromAIError[],
	) {}

	/** Scans template text from `from` (just after '`' or '}'); returns where code resumes. */
	private scanTemplateText(from: number): number {
		const { value, codeEnd } = this;
		const end = findTemplateTextEnd(value, from, codeEnd);
		if (end === codeEnd) return end;
		if (value.charCodeAt(end) === Char.Backtick) {
			this.previous = Previous.Value;
			return end + 1;
		}
		// `${`: code until the `}` that brings the brace depth back.
		this.templates.push(this.braceDepth);
		this.braceDepth = 0;
		this.previous = Previous.Operator;
		return end + 2;
	}

	/** Skips a quoted string starting at `from`; returns the position after it. */
	private skipString(from: number, quote: number): number {
		return findClosingQuote(this.value, from, this.codeEnd, quote === Char.Quote ? '"' : "'") + 1;
	}

	/** Skips the rest of a number starting at `from`. */
	private skipNumber(from: number): number {
		const { value, codeEnd } = this;
		let at = from;
		while (
			at < codeEnd &&
			(isIdentifierPart(value.charCodeAt(at)) || value.charCodeAt(at) === Char.Dot)
		)
			at++;
		return at;
	}

	/** Handles an identifier `value[start, end)`; returns where scanning resumes. */
	private identifier(start: number, end: number): number {
		const { value } = this;
		const isMember = this.previous === Previous.Dot;
		this.previous = Previous.Value;
		if (end - start !== 7 || value.charCodeAt(start) !== Char.Dollar) {
			if (!isMember && end - start <= 10 && KEYWORDS_BEFORE_EXPRESSION.has(value.slice(start, end)))
				this.previous = Previous.Operator;
			return end;
		}
		if (isMember || value.slice(start, end).toLowerCase() !== '$fromai') return end;
		const openParen = readFromAIReference(
			value,
			start,
			end,
			this.codeStart,
			this.codeEnd,
			this.errors,
		);
		if (openParen === -1) return end;
		this.parens.push(this.calls.length);
		this.calls.push({ start, openParen, closeParen: -1 });
		this.previous = Previous.Operator;
		return openParen + 1;
	}

	run(): CallSite[] {
		const { value, codeEnd } = this;
		let position = this.codeStart;
		while (position < codeEnd) {
			const code = value.charCodeAt(position);
			if (isWhitespace(code)) {
				position++;
				continue;
			}
			if (isIdentifierStart(code)) {
				let end = position + 1;
				while (end < codeEnd && isIdentifierPart(value.charCodeAt(end))) end++;
				position = this.identifier(position, end);
				continue;
			}
			if (code >= Char.Zero && code <= Char.Nine) {
				position = this.skipNumber(position + 1);
				this.previous = Previous.Value;
				continue;
			}
			switch (code) {
				case Char.Slash: {
					const next = position + 1 < codeEnd ? value.charCodeAt(position + 1) : -1;
					if (next === Char.Slash || next === Char.Asterisk) {
						position = skipTrivia(value, position, codeEnd);
						continue;
					}
					if (this.previous !== Previous.Value) {
						const regexEnd = findRegexLiteralEnd(value, position, codeEnd);
						if (regexEnd !== -1) {
							position = regexEnd;
							this.previous = Previous.Value;
							continue;
						}
					}
					break;
				}
				case Char.Apostrophe:
				case Char.Quote:
					position = this.skipString(position, code);
					this.previous = Previous.Value;
					continue;
				case Char.Backtick:
					position = this.scanTemplateText(position + 1);
					continue;
				case Char.Dot: {
					const next = value.charCodeAt(position + 1);
					if (next >= Char.Zero && next <= Char.Nine && position + 1 < codeEnd) {
						position = this.skipNumber(position + 2);
						this.previous = Previous.Value;
					} else if (next === Char.Dot && value.charCodeAt(position + 2) === Char.Dot) {
						position += 3;
						this.previous = Previous.Operator;
					} else {
						position++;
						this.previous = Previous.Dot;
					}
					continue;
				}
				case Char.Question: {
					const next = value.charCodeAt(position + 1);
					const afterNext = value.charCodeAt(position + 2);
					if (
						next === Char.Dot &&
						!(afterNext >= Char.Zero && afterNext <= Char.Nine) &&
						position + 1 < codeEnd
					) {
						position += 2;
						this.previous = Previous.Dot;
						continue;
					}
					break;
				}
				case Char.OpenParen:
					this.parens.push(-1);
					break;
				case Char.CloseParen: {
					const opened = this.parens.pop();
					if (opened !== undefined && opened !== -1) this.calls[opened].closeParen = position;
					position++;
					this.previous = Previous.Value;
					continue;
				}
				case Char.CloseBracket:
					position++;
					this.previous = Previous.Value;
					continue;
				case Char.OpenBrace:
					this.braceDepth++;
					break;
				case Char.CloseBrace:
					if (this.braceDepth === 0 && this.templates.length > 0) {
						this.braceDepth = this.templates.pop() ?? 0;
						position = this.scanTemplateText(position + 1);
						continue;
					}
					if (this.braceDepth > 0) this.braceDepth--;
					position++;
					this.previous = Previous.Value;
					continue;
				default:
					break;
			}
			position++;
			this.previous = Previous.Operator;
		}
		return this.finish();
	}

	private finish(): CallSite[] {
		const complete: CallSite[] = [];
		for (const call of this.calls) {
			if (call.closeParen === -1) {
				this.errors.push(
					new FromAIError(
						'FROM_AI_UNCLOSED_CALL',
						`Found '${this.value.slice(call.start, call.openParen + 1)}' without its closing ')' before the end of the {{ }} block. Allowed: a complete call such as $fromAI('key', 'description', 'string').`,
						{ index: call.start },
					),
				);
			} else {
				complete.push(call);
			}
		}
		return complete;
	}
}
