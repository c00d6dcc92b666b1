import { jsonSyntaxProblem } from '../chat/json-syntax-problem';
import { AgentConfigurationError } from '../errors/agent-configuration-error';

/**
 * Reads the "extra headers" credential field: a JSON object (or its text) whose values
 * become header strings. Empty text or `{}` gives no headers.
 *
 * @throws {AgentConfigurationError} when the text is not JSON or not an object.
 */
export function parseExtraHeaders(value: unknown): Record<string, string> {
	if (value === undefined || value === null) return {};
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return {};
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			// Not the parser's error as the cause: its message quotes the text, which holds header values.
			throw new AgentConfigurationError(
				'extraHeaders',
				`Extra headers must be a JSON object such as {"X-Title": "my app"}; found text that is not JSON: ${jsonSyntaxProblem(error)}`,
			);
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new AgentConfigurationError(
			'extraHeaders',
			`Extra headers must be a JSON object of header names to values; found ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
		);
	}
	const headers: Record<string, string> = {};
	for (const [name, headerValue] of Object.entries(parsed as Record<string, unknown>)) {
		if (headerValue === undefined || headerValue === null) continue;
		headers[name] = typeof headerValue === 'string' ? headerValue : JSON.stringify(headerValue);
	}
	return headers;
}
