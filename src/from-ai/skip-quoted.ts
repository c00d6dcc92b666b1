/**
 * Position of the quote that closes the string literal whose opening quote is at `from`
 * (`'` or `"`), honouring backslash escapes; `to` when it is not closed before `to`.
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
