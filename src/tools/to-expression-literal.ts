/**
 * JavaScript source for a JSON value, safe to place inside an n8n `{{ … }}` segment:
 * strings are JSON string literals with `{` and `}` written as `\u007b` / `\u007d`, and
 * objects/arrays are written with spaces between braces and in parentheses, so the source
 * never contains `{{` or `}}` and a model's text can never open or close an expression.
 */
export function toExpressionLiteral(value: unknown): string {
	if (value === null || value === undefined) return 'null';
	if (typeof value === 'string') return escapeBraces(JSON.stringify(value));
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
	if (typeof value === 'boolean') return String(value);
	if (Array.isArray(value)) return `[ ${value.map(toExpressionLiteral).join(', ')} ]`;
	if (typeof value === 'object') {
		const entries = Object.entries(value).map(
			([key, entry]) => `${escapeBraces(JSON.stringify(key))}: ${toExpressionLiteral(entry)}`,
		);
		return `({ ${entries.join(', ')} })`;
	}
	return 'null';
}

function escapeBraces(literal: string): string {
	return literal.replace(/[{}]/g, (brace) => (brace === '{' ? '\\u007b' : '\\u007d'));
}

/** True when a value holds a string starting with `=` anywhere (n8n would evaluate it). */
export function containsExpressionString(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(containsExpressionString);
	if (typeof value === 'object' && value !== null)
		return Object.values(value).some(containsExpressionString);
	return false;
}
