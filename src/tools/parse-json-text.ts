/**
 * A tool's text output read as JSON when it is a JSON object or array (after leading
 * whitespace); `undefined` for any other text or invalid JSON. Never throws.
 */
export function parseJsonText(text: string): unknown {
	const trimmed = text.trimStart();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}
