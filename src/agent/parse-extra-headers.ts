import { parseJsonOption } from './parse-json-option';
import { AgentConfigurationError } from '../errors/agent-configuration-error';

/**
 * Reads the "extra headers" credential field: a JSON object (or its text) whose values
 * become header strings. Empty text or `{}` gives no headers.
 *
 * @throws {AgentConfigurationError} when the text is not JSON or not an object.
 */
export function parseExtraHeaders(value: unknown): Record<string, string> {
	const parsed = parseJsonOption(
		value,
		// Not the parser's error as the cause: its message quotes the text, which holds header values.
		(problem) =>
			new AgentConfigurationError(
				'extraHeaders',
				`Extra headers must be a JSON object such as {"X-Title": "my app"}; found text that is not JSON: ${problem}`,
			),
	);
	if (parsed === undefined) return {};
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
