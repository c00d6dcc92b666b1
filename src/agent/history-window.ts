import type { ChatMessage } from '../chat/types';

/**
 * The last `turns` turns of a conversation: each turn starts at a user message and holds
 * every assistant, tool-call and tool message up to the next user message, so a window never
 * cuts a tool round in two. What comes before the first user message (the remains of a turn
 * cut earlier) is dropped. `turns` below 1 gives no messages.
 */
export function lastTurns(messages: readonly ChatMessage[], turns: number): ChatMessage[] {
	if (!(turns >= 1)) return [];
	let seen = 0;
	for (let index = messages.length - 1; index >= 0; index--) {
		if (messages[index].role !== 'user') continue;
		seen += 1;
		if (seen === Math.floor(turns)) return messages.slice(index);
	}
	const first = messages.findIndex((message) => message.role === 'user');
	return first === -1 ? [] : messages.slice(first);
}
