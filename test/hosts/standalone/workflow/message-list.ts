/**
 * Reading the message list a model request carried: one line per message, and the checks
 * providers make on tool turns.
 */
import { expect } from 'vitest';

interface WireMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string }>;
	tool_call_id?: string;
}

/** The request's messages but the system message, one line each (`assistant: calls id …`, `tool id: text`). */
export function conversationOf(messages: WireMessage[]): string[] {
	return messages
		.filter((message) => message.role !== 'system')
		.map((message) => {
			if (message.role === 'tool')
				return `tool ${message.tool_call_id}: ${String(message.content)}`;
			if (message.tool_calls?.length)
				return `assistant: calls ${message.tool_calls.map((call) => call.id).join(' ')}`;
			return `${message.role}: ${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`;
		});
}

/**
 * Fails unless the list is what every provider accepts: after the system message a user
 * message first, each tool message right after the assistant message that called it (or its
 * sibling results), and every call answered by exactly one result.
 */
export function assertValidToolTurns(messages: WireMessage[]): void {
	const rest = messages.filter((message) => message.role !== 'system');
	expect(rest[0]?.role).toBe('user');
	let open: Set<string> | undefined;
	for (const message of rest) {
		if (message.role === 'tool') {
			expect(open, `tool message ${message.tool_call_id} without its call`).toBeDefined();
			expect(
				open!.delete(message.tool_call_id!),
				`tool message ${message.tool_call_id} answers no open call`,
			).toBe(true);
			continue;
		}
		expect(
			open === undefined || open.size === 0,
			`calls without results: ${[...(open ?? [])].join(' ')}`,
		).toBe(true);
		open = message.tool_calls?.length
			? new Set(message.tool_calls.map((call) => call.id))
			: undefined;
	}
	expect(open === undefined || open.size === 0, 'the list ends with unanswered calls').toBe(true);
}
