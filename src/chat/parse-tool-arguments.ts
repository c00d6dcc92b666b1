import { argumentChecks } from '../errors/invalid-argument-error';
import { ToolArgumentsError } from '../errors/tool-arguments-error';

/**
 * Parses the `arguments` text of a tool call into an object.
 *
 * Empty or whitespace-only text is `{}` (providers omit arguments for parameterless
 * tools). Two JSON values run together (`{"a":1}{"b":2}`, seen when a provider repeats a
 * call in one delta stream) are an error, never split into two calls.
 * @throws ToolArgumentsError with the position of the problem when the text is not exactly one JSON object
 */
export function parseToolArguments(argumentsText: string): Record<string, unknown> {
	argumentChecks('parseToolArguments').string(argumentsText, 'argumentsText');
	if (argumentsText.trim() === '') return {};
	let value: unknown;
	try {
		value = JSON.parse(argumentsText);
	} catch (error) {
		throw describeJsonError(argumentsText, error);
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
		throw new ToolArgumentsError(`expected a JSON object, found ${kind}`, 0, argumentsText);
	}
	return value as Record<string, unknown>;
}

function describeJsonError(text: string, error: unknown): ToolArgumentsError {
	const reason = error instanceof Error ? error.message : String(error);
	const match = /position (\d+)/.exec(reason);
	const position = match ? Number(match[1]) : text.length;
	if (match && position > 0 && isJson(text.slice(0, position))) {
		const next = text[position];
		return new ToolArgumentsError(
			next === '{' || next === '['
				? 'two JSON values run together (a second object starts here)'
				: `unexpected text after the JSON object`,
			position,
			text,
		);
	}
	if (!match) return new ToolArgumentsError('the JSON ends too early (truncated)', position, text);
	return new ToolArgumentsError(
		`invalid JSON (${reason.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '')})`,
		position,
		text,
	);
}

function isJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}
