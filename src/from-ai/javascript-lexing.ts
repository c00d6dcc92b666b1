/**
 * The JavaScript lexing shared by everything in `from-ai/` that reads code (call sites, the
 * `$fromAI` reference check, argument splitting and reading, whole-segment detection): one
 * definition of whitespace, line terminators, comments, identifiers, quoted strings, template
 * text and regex literals. n8n runs expression code as JavaScript, so these follow
 * JavaScript (a `//` comment ends at any line terminator, not only at `\n`).
 *
 * All functions take `charCodeAt` codes or positions in `value`; none reads at or past `to`.
 */

const enum Char {
	Tab = 9,
	LineFeed = 10,
	VerticalTab = 11,
	FormFeed = 12,
	CarriageReturn = 13,
	Space = 32,
	Dollar = 36,
	Asterisk = 42,
	Slash = 47,
	Zero = 48,
	Nine = 57,
	OpenBracket = 91,
	Backslash = 92,
	CloseBracket = 93,
	Underscore = 95,
	Backtick = 96,
	OpenBrace = 123,
	NoBreakSpace = 0xa0,
	LineSeparator = 0x2028,
	ParagraphSeparator = 0x2029,
	ByteOrderMark = 0xfeff,
}

/** Longest regex literal recognised (see {@link findRegexLiteralEnd}). */
const MAX_REGEX_LENGTH = 2000;

/** A JavaScript line terminator: LF, CR, U+2028, U+2029. */
export function isLineTerminator(code: number): boolean {
	return (
		code === Char.LineFeed ||
		code === Char.CarriageReturn ||
		code === Char.LineSeparator ||
		code === Char.ParagraphSeparator
	);
}

/** Whitespace between tokens: space, tab, vertical tab, form feed, NBSP, BOM and the line terminators. */
export function isWhitespace(code: number): boolean {
	return (
		code === Char.Space ||
		code === Char.Tab ||
		isLineTerminator(code) ||
		code === Char.VerticalTab ||
		code === Char.FormFeed ||
		code === Char.NoBreakSpace ||
		code === Char.ByteOrderMark
	);
}

/** A character that may start an identifier: ASCII letters, `$`, `_`, and anything beyond ASCII. */
export function isIdentifierStart(code: number): boolean {
	return (
		(code >= 97 && code <= 122) ||
		(code >= 65 && code <= 90) ||
		code === Char.Dollar ||
		code === Char.Underscore ||
		code >= 128
	);
}

/** A character that may continue an identifier: an identifier start or a digit. */
export function isIdentifierPart(code: number): boolean {
	return isIdentifierStart(code) || (code >= Char.Zero && code <= Char.Nine);
}

/** Skips whitespace from `from`; returns the first other position, or `to`. */
export function skipWhitespace(value: string, from: number, to: number): number {
	let at = from;
	while (at < to && isWhitespace(value.charCodeAt(at))) at++;
	return at;
}

/**
 * Skips whitespace and comments (`// …` up to a line terminator, `/* … *\/`) from `from`;
 * returns the next significant position, or `to`. A block comment not closed before `to`
 * runs to `to`.
 */
export function skipTrivia(value: string, from: number, to: number): number {
	let at = from;
	while (at < to) {
		const code = value.charCodeAt(at);
		if (isWhitespace(code)) {
			at++;
		} else if (code === Char.Slash && value.charCodeAt(at + 1) === Char.Slash && at + 1 < to) {
			at += 2;
			while (at < to && !isLineTerminator(value.charCodeAt(at))) at++;
		} else if (code === Char.Slash && value.charCodeAt(at + 1) === Char.Asterisk && at + 1 < to) {
			const close = value.indexOf('*/', at + 2);
			at = close === -1 || close + 2 > to ? to : close + 2;
		} else {
			break;
		}
	}
	return at;
}

/**
 * Position of the quote that closes the string literal whose opening quote is at `from`
 * (`'` or `"`), honouring backslash escapes; `to` when it is not closed before `to`. A raw
 * line break does not end it (JavaScript would reject the code, so n8n never runs it).
 * Uses `indexOf` for the common case of a string without backslashes — per-character loops
 * over descriptions were a large part of the scan's time.
 */
export function findClosingQuote(value: string, from: number, to: number, quote: string): number {
	let at = from + 1;
	for (;;) {
		const close = value.indexOf(quote, at);
		if (close === -1 || close >= to) return to;
		const backslash = value.indexOf('\\', at);
		if (backslash === -1 || backslash > close) return close;
		// Escapes before the candidate: walk them one by one.
		at = backslash + 2;
		while (at < close) {
			const next = value.indexOf('\\', at);
			if (next === -1 || next > close) break;
			at = next + 2;
		}
		if (at <= close) return close;
	}
}

/**
 * Where template-literal text starting at `from` (just after '`' or after the `}` closing a
 * `${…}`) ends: the position of the closing '`', or of the `$` of a `${` that opens code;
 * `to` when neither comes first. The caller tells the two apart by the character there.
 */
export function findTemplateTextEnd(value: string, from: number, to: number): number {
	let at = from;
	while (at < to) {
		const code = value.charCodeAt(at);
		if (code === Char.Backslash) {
			at += 2;
		} else if (
			code === Char.Backtick ||
			(code === Char.Dollar && value.charCodeAt(at + 1) === Char.OpenBrace && at + 1 < to)
		) {
			return at;
		} else {
			at++;
		}
	}
	return to;
}

/**
 * The end of a regex literal whose `/` is at `from` (after its flags), or -1 when there is
 * none: a line break or `to` comes first. Looks at most MAX_REGEX_LENGTH characters: a failed
 * attempt makes `/` a division and the scan goes on, so unbounded attempts would be quadratic
 * on input like `/[/[/[…`.
 */
export function findRegexLiteralEnd(value: string, from: number, to: number): number {
	const end = Math.min(to, from + MAX_REGEX_LENGTH);
	let at = from + 1;
	let inClass = false;
	while (at < end) {
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
			while (at < end && isIdentifierPart(value.charCodeAt(at))) at++;
			return at;
		}
		at++;
	}
	return -1;
}
