import { readFileSync } from 'node:fs';
import { agentInputOptions } from './option-specs';
import { UsageError } from '../errors/usage-error';

export { agentInputOptions };

/** Help lines for {@link agentInputOptions}. */
export const agentInputOptionsHelp = `  --input JSON         the item the agent node receives ($json in its expressions), as in
                       n8n; --prompt becomes its chatInput. With it, the node's own prompt
                       is sent (resolved over the item) instead of --prompt. @FILE reads a file`;

/** What `--input` and `--pin` give a run: the library's `input` and `pins`. */
export interface AgentInputs {
	input?: Record<string, unknown>;
	pins?: Record<string, unknown>;
}

/**
 * Reads `--input JSON` (an object) and `--pin NODE=JSON` (repeatable; an object or an array);
 * `@FILE` instead of JSON reads the file.
 * @throws {UsageError} for JSON that does not parse, an input that is not an object, or a pin without `NODE=`.
 */
export function agentInputsFrom(values: Record<string, unknown>): AgentInputs {
	const inputs: AgentInputs = {};
	const input = values.input as string | undefined;
	if (input !== undefined) {
		const value = jsonOf(input, '--input');
		if (typeof value !== 'object' || value === null || Array.isArray(value))
			throw new UsageError(
				`--input must be a JSON object (the json of the item the agent node receives), got ${JSON.stringify(value)}.`,
			);
		inputs.input = value as Record<string, unknown>;
	}
	for (const pin of (values.pin as string[] | undefined) ?? []) {
		const equals = pin.indexOf('=');
		if (equals <= 0)
			throw new UsageError(
				`--pin takes NODE=JSON (the node's name, "=", its output item as JSON), got ${JSON.stringify(pin)}.`,
			);
		const node = pin.slice(0, equals);
		const value = jsonOf(pin.slice(equals + 1), `--pin ${node}`);
		if (typeof value !== 'object' || value === null)
			throw new UsageError(
				`--pin ${node} must be a JSON object (one item) or an array of them, got ${JSON.stringify(value)}.`,
			);
		inputs.pins = { ...inputs.pins, [node]: value };
	}
	return inputs;
}

function jsonOf(text: string, flag: string): unknown {
	let source = text;
	if (text.startsWith('@')) {
		try {
			source = readFileSync(text.slice(1), 'utf8');
		} catch (error) {
			throw new UsageError(
				`${flag}: cannot read ${text.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
			);
		}
	}
	try {
		return JSON.parse(source);
	} catch (error) {
		throw new UsageError(`${flag} is not valid JSON: ${(error as Error).message}.`);
	}
}
