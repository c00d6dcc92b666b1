import type { AssistantTurn, ChatMessage } from './types';

/**
 * The assistant message to send back in the next request of a tool loop: `content: null`
 * (never `""`) when the turn only calls tools, `reasoning_details` unmodified, and the
 * tool calls with their argument text as received. A call whose arguments were broken
 * JSON is sent back with `"{}"`: some providers reject a request whose history holds
 * invalid JSON arguments, and the tool message for that call explains the problem.
 */
export function assistantMessageFromTurn(
	turn: AssistantTurn,
): Extract<ChatMessage, { role: 'assistant' }> {
	const message: Extract<ChatMessage, { role: 'assistant' }> = {
		role: 'assistant',
		content: turn.text === '' && turn.toolCalls.length > 0 ? null : turn.text,
	};
	if (turn.toolCalls.length > 0) {
		message.tool_calls = turn.toolCalls.map((call) => ({
			id: call.toolCallId,
			type: 'function',
			function: {
				name: call.name,
				arguments:
					call.error === undefined && call.argumentsText.trim() !== '' ? call.argumentsText : '{}',
			},
		}));
	}
	if (turn.reasoningDetails.length > 0) message.reasoning_details = turn.reasoningDetails;
	else if (turn.reasoning !== '') message.reasoning = turn.reasoning;
	return message;
}
