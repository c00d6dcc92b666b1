import type { AgentResult } from '../agent-state';

/** A plain JSON object (the shape of an n8n item's `json`). */
export type JsonObject = Record<string, unknown>;

/** The node's "Output Format": the answer only (text or parsed JSON), or the answer with the run's details. */
export type AgentOutputFormat = 'text' | 'json' | 'full';

/**
 * The output item json of a finished run.
 * - `text`: `{ output: "<answer>" }`;
 * - `json`: `{ output: { …the parsed, validated object… } }` — the value itself, never its
 *   JSON text, never `{ output: { output } }`;
 * - `full`: the answer (the object when a schema was given) plus `steps`, `usage` (tokens,
 *   cached and cache-write tokens, cost), `cost`, `iterations`, `finishReason`, `model`
 *   (the one that answered, e.g. a fallback), `stopReason`, `reasoning`, and
 *   `outputAttempts` when answers were rejected.
 * `returnIntermediateSteps` adds the details to `text` and `json` as well (earlier behaviour).
 */
export function agentOutputItem(
	result: AgentResult,
	options: { format?: AgentOutputFormat; returnIntermediateSteps?: boolean; debugLog?: string[] },
): JsonObject {
	const format = options.format ?? 'text';
	const json: JsonObject = { output: result.object !== undefined ? result.object : result.output };
	if (format === 'full' || options.returnIntermediateSteps) {
		json.steps = result.steps;
		json.usage = result.usage;
		if (result.usage.cost !== undefined) json.cost = result.usage.cost;
		json.iterations = result.iterations;
		if (result.finishReason !== undefined) json.finishReason = result.finishReason;
		if (result.model !== undefined) json.model = result.model;
		json.stopReason = result.stopReason;
		json.reasoning = result.reasoning;
		if (result.outputAttempts) json.outputAttempts = result.outputAttempts;
	}
	if (options.debugLog) json.debugLog = options.debugLog;
	return json;
}
