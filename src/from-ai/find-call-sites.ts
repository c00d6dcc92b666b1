import { FromAIError } from '../errors/from-ai-error';
import { findClosingQuote } from './skip-quoted';

/** A `$fromAI(` call found by the lexer, before its arguments are parsed. */
export interface CallSite {
	/** Position of `$`. */
	start: number;
	/** Position of `(`. */
	openParen: number;
	/** Position of the matching `)`. */
	closeParen: number;
}

/** The spellings n8n defines at runtime (workflow-data-proxy: `$fromAI`, `$fromai`, `$fromAi`). */
const RUNTIME_SPELLINGS = new Set(['$fromAI', '$fromai', '$fromAi']);

/** After these keywords an expression starts, so `/` begins a regex literal. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
	'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await',
]);

/** Longest regex literal recognised (see `scanRegex`). */
const MAX_REGEX_LENGTH = 2000;

const enum Previous {
	/** Start of code, an operator or punctuation: an expression may start (regex allowed). */
	Operator,
	/** A value ended (identifier, literal, `)`, `]`, `}`): `/` is division. */
	Value,
	/** `.` or `?.`: the next identifier is a member name. */
	Dot,
}

const enum Char {
	Tab = 9, LineFeed = 10, CarriageReturn = 13, Space = 32, Quote = 34, Dollar = 36, Apostrophe = 39,
	OpenParen = 40, CloseParen = 41, Asterisk = 42, Comma = 44, Dot = 46, Slash = 47, Zero = 48, Nine = 57,
	Colon = 58, Question = 63, OpenBracket = 91, Backslash = 92, CloseBracket = 93, Underscore = 95,
	Backtick = 96, OpenBrace = 123, CloseBrace = 125,
}

function isIdentifierStart(code: number): boolean {
	return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === Char.Dollar || code === Char.Underscore || code >= 128;
}

function isIdentifierPart(code: number): boolean {
	return isIdentifierStart(code) || (code >= Char.Zero && code <= Char.Nine);
}

function isLineTerminator(code: number): boolean {
	return code === Char.LineFeed || code === Char.CarriageReturn || code === 0x2028 || code === 0x2029;
}

function isWhitespace(code: number): boolean {
	return code === Char.Space || code === Char.Tab || isLineTerminator(code) || code === 11 || code === 12 || code === 0xa0 || code === 0xfeff;
}

/**
 * Finds the `$fromAI(…)` calls in one code segment `value[codeStart, codeEnd)` with a
 * single-pass JavaScript lexer: string literals, template-literal text, comments and
 * regex literals are skipped; code inside `${…}` is scanned. Only the global identifier
 * counts (not `x.$fromAI`, not `my$fromAI`). Problems are pushed to `errors` and the scan
 * goes on, so a caller can list every problem.
 */
export function findCallSites(value: string, codeStart: number, codeEnd: number, errors: FromAIError[]): CallSite[] {
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

	/** Skips whitespace and comments; returns the next significant position. */
	private skipTrivia(from: number): number {
		const { value, codeEnd } = this;
		let at = from;
		while (at < codeEnd) {
			const code = value.charCodeAt(at);
			if (isWhitespace(code)) {
				at++;
			} else if (code === Char.Slash && value.charCodeAt(at + 1) === Char.Slash && at + 1 < codeEnd) {
				at += 2;
				while (at < codeEnd && !isLineTerminator(value.charCodeAt(at))) at++;
			} else if (code === Char.Slash && value.charCodeAt(at + 1) === Char.Asterisk && at + 1 < codeEnd) {
				const close = value.indexOf('*/', at + 2);
				at = close === -1 || close + 2 > codeEnd ? codeEnd : close + 2;
			} else {
				break;
			}
		}
		return at;
	}

	/** Scans template text from `from` (just after '`' or '}'); returns where code resumes. */
	private scanTemplateText(from: number): number {
		const { value, codeEnd } = this;
		let at = from;
		while (at < codeEnd) {
			const code = value.charCodeAt(at);
			if (code === Char.Backslash) {
				at += 2;
			} else if (code === Char.Backtick) {
				this.previous = Previous.Value;
				return at + 1;
			} else if (code === Char.Dollar && value.charCodeAt(at + 1) === Char.OpenBrace && at + 1 < codeEnd) {
				this.templates.push(this.braceDepth);
				this.braceDepth = 0;
				this.previous = Previous.Operator;
				return at + 2;
			} else {
				at++;
			}
		}
		return codeEnd;
	}

	/**
	 * Returns the end of a regex literal starting at `from` ('/'), or -1 if it is not one.
	 * Looks at most MAX_REGEX_LENGTH characters: a failed attempt makes `/` a division and
	 * the scan goes on, so unbounded attempts would be quadratic on input like `/[/[/[…`.
	 */
	private scanRegex(from: number): number {
		const { value } = this;
		const codeEnd = Math.min(this.codeEnd, from + MAX_REGEX_LENGTH);
		let at = from + 1;
		let inClass = false;
		while (at < codeEnd) {
			const code = value.charCodeAt(at);
			if (isLineTerminator(code)) return -1;
			if (code === Char.Backslash) {
				at += 2;
				continue;
			}
			if (inClass) {
				if (code === Char.CloseBracket) inClass = false;
			} else if (code === Char.OpenBracket) {
				inClass = true;
			} else if (code === Char.Slash) {
				at++;
				while (at < codeEnd && isIdentifierPart(value.charCodeAt(at))) at++;
				return at;
			}
			at++;
		}
		return -1;
	}

	/**
	 * Skips a quoted string starting at `from`; returns the position after it. A raw line
	 * break does not end it here (JavaScript would reject the code, so n8n never runs it).
	 */
	private skipString(from: number, quote: number): number {
		return findClosingQuote(this.value, from, this.codeEnd, quote === Char.Quote ? '"' : "'") + 1;
	}

	/** Skips the rest of a number starting at `from`. */
	private skipNumber(from: number): number {
		const { value, codeEnd } = this;
		let at = from;
		while (at < codeEnd && (isIdentifierPart(value.charCodeAt(at)) || value.charCodeAt(at) === Char.Dot)) at++;
		return at;
	}

	/** Handles an identifier `value[start, end)`; returns where scanning resumes. */
	private identifier(start: number, end: number): number {
		const { value } = this;
		const isMember = this.previous === Previous.Dot;
		this.previous = Previous.Value;
		if (end - start !== 7 || value.charCodeAt(start) !== Char.Dollar) {
			if (!isMember && end - start <= 10 && KEYWORDS_BEFORE_EXPRESSION.has(value.slice(start, end))) this.previous = Previous.Operator;
			return end;
		}
		const name = value.slice(start, end);
		if (isMember || name.toLowerCase() !== '$fromai') return end;
		const after = this.skipTrivia(end);
		const calledHere = after < this.codeEnd && value.charCodeAt(after) === Char.OpenParen;
		if (!RUNTIME_SPELLINGS.has(name)) {
			if (calledHere) {
				this.errors.push(new FromAIError('FROM_AI_WRONG_CASE', `Found '${name}(', which does not exist when n8n runs the node (it would return undefined). Allowed spellings: $fromAI, $fromai, $fromAi. Did you mean '$fromAI('?`, { index: start }));
			}
			return end;
		}
		if (calledHere) {
			this.parens.push(this.calls.length);
			this.calls.push({ start, openParen: after, closeParen: -1 });
			this.previous = Previous.Operator;
			return after + 1;
		}
		if (!isObjectKey(value, start, after, this.codeStart, this.codeEnd)) {
			this.errors.push(new FromAIError('FROM_AI_NOT_CALLED', `Found '${name}' without a direct call. Allowed: a direct call such as ${name}('key', 'description', 'string') so the parameter can be found before the node runs.`, { index: start }));
		}
		return end;
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
						position = this.skipTrivia(position);
						continue;
					}
					if (this.previous !== Previous.Value) {
						const regexEnd = this.scanRegex(position);
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
					if (next === Char.Dot && !(afterNext >= Char.Zero && afterNext <= Char.Nine) && position + 1 < codeEnd) {
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
				this.errors.push(new FromAIError('FROM_AI_UNCLOSED_CALL', `Found '${this.value.slice(call.start, call.openParen + 1)}' without its closing ')' before the end of the {{ }} block. Allowed: a complete call such as $fromAI('key', 'description', 'string').`, { index: call.start }));
			} else {
				complete.push(call);
			}
		}
		return complete;
	}
}

/** `{ $fromAI: 1 }` or `{ a, $fromAI: 1 }`: a property name, not a reference. */
function isObjectKey(value: string, start: number, after: number, codeStart: number, codeEnd: number): boolean {
	if (after >= codeEnd || value.charCodeAt(after) !== Char.Colon) return false;
	let before = start - 1;
	while (before >= codeStart && isWhitespace(value.charCodeAt(before))) before--;
	if (before < codeStart) return false;
	const code = value.charCodeAt(before);
	return code === Char.OpenBrace || code === Char.Comma;
}
