import { jsonSyntaxProblem } from '../chat/json-syntax-problem';

/**
 * The value of a JSON node option (extra headers, provider options, an output schema):
 * absent, null or blank text is undefined; text is parsed; anything else is taken as n8n
 * already parsed it. `invalid` makes the error for text that is not JSON, from what the
 * parser found (`problem`, without the quote of the text V8 puts in its message: the text
 * may hold secrets) and the parser's error.
 *
 * @throws what `invalid` returns, when the text is not JSON.
 */
export function parseJsonOption(
	value: unknown,
	invalid: (problem: string, error: unknown) => Error,
): unknown {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw invalid(jsonSyntaxProblem(error), error);
	}
}
