/** The outcome of {@link parseJsonAnswer}. */
export type ParsedJsonAnswer = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Reads a model's answer as JSON, leniently: surrounding whitespace and a Markdown code
 * fence (```json … ```) are ignored, and when the text around the JSON is prose, the span
 * from the first `{`/`[` to the last `}`/`]` is tried. Never throws.
 */
export function parseJsonAnswer(text: string): ParsedJsonAnswer {
	const trimmed = text.trim();
	if (trimmed === '') return { ok: false, error: 'the answer was empty' };
	const fenced = /^```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)\n?```$/.exec(trimmed);
	const candidate = fenced ? fenced[1].trim() : trimmed;
	try {
		return { ok: true, value: JSON.parse(candidate) };
	} catch (error) {
		const start = candidate.search(/[{[]/);
		const end = Math.max(candidate.lastIndexOf('}'), candidate.lastIndexOf(']'));
		if (start >= 0 && end > start) {
			try {
				return { ok: true, value: JSON.parse(candidate.slice(start, end + 1)) };
			} catch {
				// fall through to the first error, which describes the whole text
			}
		}
		return { ok: false, error: `the answer is not JSON (${(error as Error).message})` };
	}
}
