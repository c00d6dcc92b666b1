import type { ChatMessage } from '../chat/types';

/**
 * Makes a message history safe to send: every `tool` message directly follows the
 * assistant message that called it, and every assistant tool call has its result. A
 * window that cut a conversation in the middle of a tool round (memory trimming) would
 * otherwise leave orphaned tool messages, which providers reject.
 *
 * Tool messages without their call are dropped; tool calls without a result are removed
 * from their assistant message (which is dropped when nothing is left of it).
 */
export function sanitizeHistory(messages: ChatMessage[]): ChatMessage[] {
	const result: ChatMessage[] = [];
	let index = 0;
	while (index < messages.length) {
		const message = messages[index];
		index += 1;
		if (message.role === 'tool') continue;
		if (message.role !== 'assistant' || !message.tool_calls || message.tool_calls.length === 0) {
			result.push(message);
			continue;
		}
		const callIds = new Set(message.tool_calls.map((call) => call.id));
		const results = new Map<string, ChatMessage>();
		while (index < messages.length && messages[index].role === 'tool') {
			const toolMessage = messages[index] as Extract<ChatMessage, { role: 'tool' }>;
			if (callIds.has(toolMessage.tool_call_id) && !results.has(toolMessage.tool_call_id)) {
				results.set(toolMessage.tool_call_id, toolMessage);
			}
			index += 1;
		}
		const kept = message.tool_calls.filter((call) => results.has(call.id));
		const { tool_calls: _calls, ...rest } = message;
		if (kept.length > 0) {
			result.push({ ...rest, tool_calls: kept });
			for (const call of kept) result.push(results.get(call.id) as ChatMessage);
		} else if (message.content) {
			result.push(rest);
		}
	}
	return result;
}
