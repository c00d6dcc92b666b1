/**
 * Removes an API key, and anything shaped like an OpenRouter/OpenAI key, from text that
 * may end up in an error message or a log.
 */
export function redactSecrets(text: string, apiKey?: string): string {
	let result = text;
	if (apiKey && apiKey.length >= 4) result = result.split(apiKey).join('[redacted]');
	return result.replace(/\bsk-[A-Za-z0-9_-]{16,}/g, '[redacted]');
}
