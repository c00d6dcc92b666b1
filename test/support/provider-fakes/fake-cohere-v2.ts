/**
 * Cohere's v2 Chat API stream (`POST https://api.cohere.com/v2/chat` with `"stream": true`), as
 * the `cohere-ai` SDK's `CohereClientV2.chatStream` reads it — for nock, since n8n's Cohere node
 * builds that client from the API key alone (no base URL).
 *
 * Server-sent events, each `event: <type>\ndata: <json with the same type>\n\n`, ending with
 * `data: [DONE]`: `message-start` (`id`, `delta.message.role`), per text block `content-start`,
 * `content-delta` (`delta.message.content.text`) and `content-end`; per tool call
 * `tool-call-start` (`delta.message.tool_calls`: `id`, `type: 'function'`, `function.name`,
 * empty `arguments`), `tool-call-delta` (argument JSON pieces) and `tool-call-end`; then
 * `message-end` (`delta.finish_reason`: `COMPLETE` or `TOOL_CALL`; `delta.usage.tokens` and
 * `billed_units` with `input_tokens`, `output_tokens`).
 */

/** One tool call for {@link cohereStreamBody}. */
export interface CohereToolCall {
	id: string;
	name: string;
	arguments: Record<string, unknown>;
}

function split(text: string, size: number): string[] {
	const points = Array.from(text);
	const pieces: string[] = [];
	for (let start = 0; start < points.length; start += size)
		pieces.push(points.slice(start, start + size).join(''));
	return pieces;
}

/** The SSE body of one streamed answer: text, or tool calls (with a tool plan, as Cohere sends). */
export function cohereStreamBody(
	answer: { text: string } | { toolPlan: string; toolCalls: CohereToolCall[] },
	usage: { input_tokens: number; output_tokens: number },
): string {
	const events: Array<Record<string, unknown>> = [
		{
			type: 'message-start',
			id: 'fake-cohere-message-1',
			delta: {
				message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] },
			},
		},
	];
	if ('text' in answer) {
		events.push({
			type: 'content-start',
			index: 0,
			delta: { message: { content: { type: 'text', text: '' } } },
		});
		for (const text of split(answer.text, 8))
			events.push({ type: 'content-delta', index: 0, delta: { message: { content: { text } } } });
		events.push({ type: 'content-end', index: 0 });
	} else {
		for (const piece of split(answer.toolPlan, 8))
			events.push({ type: 'tool-plan-delta', delta: { message: { tool_plan: piece } } });
		answer.toolCalls.forEach((call, index) => {
			events.push({
				type: 'tool-call-start',
				index,
				delta: {
					message: {
						tool_calls: {
							id: call.id,
							type: 'function',
							function: { name: call.name, arguments: '' },
						},
					},
				},
			});
			for (const piece of split(JSON.stringify(call.arguments), 8))
				events.push({
					type: 'tool-call-delta',
					index,
					delta: { message: { tool_calls: { function: { arguments: piece } } } },
				});
			events.push({ type: 'tool-call-end', index });
		});
	}
	events.push({
		type: 'message-end',
		delta: {
			finish_reason: 'text' in answer ? 'COMPLETE' : 'TOOL_CALL',
			usage: { billed_units: usage, tokens: usage },
		},
	});
	return `${events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
}
