import type { ChatMessage, ContentPart } from '../../../chat/types';
import type { ValidatorState } from './validator-state';

/**
 * What a finished validator run adds to a conversation: the user message, the accepted tool
 * call (the rejected attempts and their errors are left out) and, when the tool ran, its
 * result. Empty when no call was accepted.
 */
export function validatorTranscript(
	prompt: string | ContentPart[],
	state: ValidatorState,
): ChatMessage[] {
	const call = state.call;
	if (!call) return [];
	const messages: ChatMessage[] = [
		{ role: 'user', content: prompt },
		{
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: call.toolCallId,
					type: 'function',
					function: { name: call.name, arguments: JSON.stringify(call.arguments) },
				},
			],
		},
	];
	const result = state.result?.result;
	const text =
		result === undefined
			? 'Validated; the tool was not run (Validate Only).'
			: typeof result === 'string'
				? result
				: JSON.stringify(result);
	messages.push({ role: 'tool', tool_call_id: call.toolCallId, content: text });
	return messages;
}
