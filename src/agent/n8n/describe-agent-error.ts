import { ToolbridgeError } from '../../errors/toolbridge-error';

/**
 * A hint for the n8n error panel, by error code: what to change so the run succeeds.
 * Undefined when there is nothing specific to say.
 */
export function describeAgentError(error: unknown): string | undefined {
	if (!ToolbridgeError.isInstance(error)) return undefined;
	switch (error.code) {
		case 'AGENT_MAX_ITERATIONS':
			return 'Raise "Max Iterations", or set "On Max Iterations" to "Final Answer" to get an answer from what the tools returned so far.';
		case 'AGENT_REPEATED_CALL':
			return 'The model kept calling the same tool with the same arguments. Improve the tool description or system message, or raise "Repeated Call Limit".';
		case 'AGENT_EMPTY_ANSWER':
			return 'The model gave no text when asked for a final answer. Try another model or a higher "Max Tokens".';
		case 'AGENT_ABORTED':
			return 'The execution was cancelled.';
		case 'AGENT_CONFIGURATION':
			return 'Check the node parameters and the credential.';
		case 'CHAT_AUTHENTICATION':
			return 'The server rejected the API key. Check the key in the credential.';
		case 'CHAT_INSUFFICIENT_CREDITS':
			return 'The account has no credits left. Add credits at the provider.';
		case 'CHAT_BAD_REQUEST':
			return 'The server rejected the request. Check the model name and the options (some models do not support tools, temperature or reasoning).';
		case 'CHAT_CONNECTION':
			return 'The server could not be reached. Check the base URL in the credential.';
		case 'CHAT_TIMEOUT':
			return 'The model took too long. Raise "Timeout (Seconds)" or choose a faster model.';
		case 'CHAT_RATE_LIMITED':
		case 'CHAT_PROVIDER_UNAVAILABLE':
			return 'The provider is busy or unavailable; retries were made. Try again later or choose another model.';
		default:
			return error.code.startsWith('CHAT_') ? 'The model call failed. Check the credential, the base URL and the model name.' : undefined;
	}
}
