/** One `{{ … }}` code segment of an n8n expression. */
export interface ExpressionSegment {
	/** Position of `{{`. */
	start: number;
	/** Just after `}}` (or the value's length when the segment is not closed). */
	end: number;
	/** First character of the code (after `{{`). */
	codeStart: number;
	/** Just after the last character of the code (before `}}`). */
	codeEnd: number;
}

/**
 * Splits a value into its `{{ … }}` code segments exactly as n8n's expression splitter
 * (`@n8n/tournament` `splitExpression`) does: the first unescaped `}}` closes a segment
 * (even inside a string literal); `\{{` and `\}}` (odd number of backslashes) are not
 * delimiters; an unclosed `{{` makes the rest of the value code. Text outside is literal.
 */
export function splitExpressionSegments(value: string): ExpressionSegment[] {
	const segments: ExpressionSegment[] = [];
	let searchFrom = 0;
	let open = -1;
	while (searchFrom < value.length) {
		const delimiter = open === -1 ? '{{' : '}}';
		const found = value.indexOf(delimiter, searchFrom);
		if (found === -1) break;
		// n8n counts backslashes only within the part it is currently searching.
		let backslashes = 0;
		while (
			found - backslashes - 1 >= searchFrom &&
			value.charCodeAt(found - backslashes - 1) === 92
		)
			backslashes++;
		if (backslashes % 2 === 1) {
			searchFrom = found + 2;
			continue;
		}
		if (open === -1) {
			open = found;
		} else {
			segments.push({ start: open, end: found + 2, codeStart: open + 2, codeEnd: found });
			open = -1;
		}
		searchFrom = found + 2;
	}
	if (open !== -1)
		segments.push({ start: open, end: value.length, codeStart: open + 2, codeEnd: value.length });
	return segments;
}
