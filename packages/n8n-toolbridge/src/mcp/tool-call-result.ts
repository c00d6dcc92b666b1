import type { ToolObservation } from 'n8n-nodes-toolbridge';

/** An MCP `tools/call` result (the fields this server sets). */
export interface ToolCallResult {
	[key: string]: unknown;
	content: Array<{ type: 'text'; text: string }>;
	structuredContent?: Record<string, unknown>;
	isError?: boolean;
}

/**
 * The observation the model would read, as an MCP result: the text as text content, and —
 * when that text is JSON — the parsed value as `structuredContent` (an object as is; an
 * array or a scalar as `{ result }`, since MCP wants an object). Failures are
 * `isError: true` results carrying the same message the model would read.
 */
export function toolCallResult(observation: ToolObservation): ToolCallResult {
	const result: ToolCallResult = { content: [{ type: 'text', text: observation.content }] };
	if (observation.isError) {
		result.isError = true;
		return result;
	}
	const structured = parseJson(observation.content);
	if (structured !== undefined) {
		result.structuredContent =
			typeof structured === 'object' && structured !== null && !Array.isArray(structured)
				? (structured as Record<string, unknown>)
				: { result: structured };
	}
	return result;
}

function parseJson(text: string): unknown {
	const trimmed = text.trim();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
	try {
		return JSON.parse(trimmed);
	} catch {
		// Cut output (longer than the model's limit) or plain text that starts with a bracket.
		return undefined;
	}
}
