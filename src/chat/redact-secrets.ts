const redacted = '[REDACTED]';
/** Shapes of credentials that should never reach a log even when not passed explicitly. */
const secretPatterns = [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, /\bsk-[A-Za-z0-9_-]{16,}/g];

/**
 * Replaces every occurrence of the given secrets (API keys, header values) and of
 * bearer tokens / `sk-…` keys in a text with `[REDACTED]`. Secrets shorter than four
 * characters are ignored (they would redact ordinary words).
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join(redacted);
	}
	for (const pattern of secretPatterns) result = result.replace(pattern, redacted);
	return result;
}
