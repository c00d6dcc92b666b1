/**
 * The model id of a node's `model` parameter, in either of its stored shapes: a string
 * (AgentOrchestrator version 1) or a resource locator `{ __rl: true, mode, value }` (the
 * searchable list of version 1.1 and of the chat-model sub-node), trimmed; '' when unset.
 */
export function readModelParameter(value: unknown): string {
	if (typeof value === 'object' && value !== null && 'value' in value)
		return readModelParameter((value as { value: unknown }).value);
	if (typeof value === 'string') return value.trim();
	if (value === undefined || value === null) return '';
	return String(value as number).trim();
}

/** The Model parameter's default (both shapes): what a node that never changed it uses. */
export const defaultModelId = 'anthropic/claude-sonnet-4';
