const SIMPLE_ESCAPES: Record<string, string> = {
	n: '\n',
	r: '\r',
	t: '\t',
	b: '\b',
	f: '\f',
	v: '\v',
};

/**
 * The value of a JavaScript string or template literal from its source text between the
 * quotes, with JavaScript's escapes: `\n \r \t \b \f \v \0 \xHH \uHHHH \u{H…}`, line
 * continuations, legacy octal in quoted strings, any other `\c` → `c`.
 * jsep only knows the first six, so literals are re-read from their raw text here.
 *
 * @returns the cooked string, or `undefined` when an escape is malformed (a syntax error in
 * JavaScript, e.g. `\x4` or an octal escape in a template literal).
 */
export function cookStringLiteral(body: string, isTemplate: boolean): string | undefined {
	if (body.indexOf('\\') === -1) return plain(body, isTemplate);
	let result = '';
	let position = 0;
	while (position < body.length) {
		const backslash = body.indexOf('\\', position);
		if (backslash === -1) {
			result += plain(body.slice(position), isTemplate);
			break;
		}
		result += plain(body.slice(position, backslash), isTemplate);
		const escape = body[backslash + 1];
		position = backslash + 2;
		if (escape === undefined) return undefined;
		const simple = SIMPLE_ESCAPES[escape];
		if (simple !== undefined) {
			result += simple;
		} else if (escape === 'x') {
			const hex = body.slice(position, position + 2);
			if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
			result += String.fromCharCode(parseInt(hex, 16));
			position += 2;
		} else if (escape === 'u') {
			if (body[position] === '{') {
				const close = body.indexOf('}', position);
				const hex = close === -1 ? '' : body.slice(position + 1, close);
				if (!/^[0-9a-fA-F]{1,6}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) return undefined;
				result += String.fromCodePoint(parseInt(hex, 16));
				position = close + 1;
			} else {
				const hex = body.slice(position, position + 4);
				if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
				result += String.fromCharCode(parseInt(hex, 16));
				position += 4;
			}
		} else if (escape === '\r') {
			if (body[position] === '\n') position++;
		} else if (escape === '\n' || escape === '\u2028' || escape === '\u2029') {
			// line continuation: nothing
		} else if (escape >= '0' && escape <= '7') {
			const next = body[position];
			if (escape === '0' && !(next >= '0' && next <= '9')) {
				result += '\0';
				continue;
			}
			if (isTemplate) return undefined;
			// Legacy octal (sloppy-mode strings): up to three digits, at most \377.
			let digits = escape;
			const maxLength = escape <= '3' ? 3 : 2;
			while (digits.length < maxLength && body[position] >= '0' && body[position] <= '7')
				digits += body[position++];
			result += String.fromCharCode(parseInt(digits, 8));
		} else if ((escape === '8' || escape === '9') && isTemplate) {
			return undefined;
		} else {
			result += escape;
		}
	}
	return result;
}

/** Template literals normalise CR and CRLF to LF; quoted strings cannot hold raw line breaks. */
function plain(text: string, isTemplate: boolean): string {
	return isTemplate && text.indexOf('\r') !== -1 ? text.replace(/\r\n?/g, '\n') : text;
}
