import { parseJsonOption } from '../agent/parse-json-option';
import { AgentConfigurationError } from '../errors/agent-configuration-error';

/** A comma- or newline-separated list ("a, b"), without empty entries; absent: empty. */
export function splitList(text: unknown): string[] {
	return (typeof text === 'string' ? text : '')
		.split(/[,\n]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** Seconds → ms; absent stays absent (the default applies), 0 and below are 0 (no limit). */
export function secondsToMs(value: unknown): number | undefined {
	if (typeof value !== 'number' || Number.isNaN(value)) return undefined;
	return Math.max(0, value) * 1000;
}

/**
 * Stop sequences: a JSON array of strings, or one sequence per line (`\n` written as text stays literal).
 *
 * @throws {AgentConfigurationError} for more than 4 sequences or an array that is not one of strings.
 */
export function readStopSequences(text: unknown): string[] {
	if (typeof text !== 'string' || text.trim() === '') return [];
	let sequences: string[];
	const trimmed = text.trim();
	if (trimmed.startsWith('[')) {
		try {
			const parsed: unknown = JSON.parse(trimmed);
			if (!Array.isArray(parsed) || !parsed.every((entry) => typeof entry === 'string'))
				throw new Error('not an array of strings');
			sequences = parsed;
		} catch (error) {
			throw new AgentConfigurationError(
				'stopSequences',
				`Stop Sequences must be one sequence per line or a JSON array of strings such as ["END", "###"]: ${(error as Error).message}.`,
			);
		}
	} else sequences = text.split(/\r?\n/).filter((line) => line !== '');
	if (sequences.length > 4)
		throw new AgentConfigurationError(
			'stopSequences',
			`At most 4 stop sequences are allowed; found ${sequences.length}.`,
		);
	return sequences;
}

/**
 * A JSON-object option (its text, or the object n8n already parsed); absent, empty or `{}`: undefined.
 *
 * @throws {AgentConfigurationError} naming `setting` when the value is not a JSON object.
 */
export function readJsonObject(
	value: unknown,
	setting: string,
	example: string,
): Record<string, unknown> | undefined {
	const parsed = parseJsonOption(
		value,
		// Not the parser's error as the cause: its message quotes the text (header values, say).
		(problem) =>
			new AgentConfigurationError(
				setting,
				`${setting} must be a JSON object such as ${example}; found text that is not JSON: ${problem}`,
			),
	);
	if (parsed === undefined) return undefined;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
		throw new AgentConfigurationError(
			setting,
			`${setting} must be a JSON object such as ${example}.`,
		);
	return Object.keys(parsed).length > 0 ? (parsed as Record<string, unknown>) : undefined;
}
