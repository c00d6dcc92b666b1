import type { ToolObservation } from 'n8n-nodes-toolbridge';

/** One content item of a `tools/call` result: text, or an image or a sound (base64 `data`). */
export type ToolResultContent =
	{ type: 'text'; text: string } | { type: 'image' | 'audio'; data: string; mimeType: string };

/** An MCP `tools/call` result (the fields this server sets). */
export interface ToolCallResult {
	[key: string]: unknown;
	content: ToolResultContent[];
	structuredContent?: Record<string, unknown>;
	isError?: boolean;
}

/**
 * The observation the model would read, as an MCP result: the text as text content (Claude
 * Desktop reads only that), and — when the text is the JSON of a value the tool produced
 * (`observation.value`; the output boundary drops it when the text was cut) — that value as
 * `structuredContent` (an object as is; an array or a scalar as `{ result }`, since MCP wants
 * an object). Images and sounds the tool returned (`observation.attachments`, bounded by the
 * session's output boundary) follow the text as `image` / `audio` content. Failures are
 * `isError: true` results carrying the same message the model would read.
 */
export function toolCallResult(observation: ToolObservation): ToolCallResult {
	const result: ToolCallResult = { content: [{ type: 'text', text: observation.content }] };
	for (const attachment of observation.attachments ?? [])
		result.content.push({
			type: attachment.kind,
			data: attachment.data,
			mimeType: attachment.mimeType,
		});
	if (observation.isError) {
		result.isError = true;
		return result;
	}
	const structured = observation.value;
	if (structured !== undefined) {
		result.structuredContent =
			typeof structured === 'object' && structured !== null && !Array.isArray(structured)
				? (structured as Record<string, unknown>)
				: { result: structured };
	}
	return result;
}
