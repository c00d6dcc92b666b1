import type { ChatConnection } from '../agent/create-chat-model-caller';
import type { CredentialConnection } from './read-credential-connection';
import type { ModelConnectionOptions } from './model-option-reads';

/** Where a node's model calls go, and what they must never show. */
export interface NodeChatConnection {
	connection: ChatConnection;
	/** The credential's API key and every extra header value: what the node redacts. */
	secrets: string[];
}

/**
 * The chat connection of a node (the orchestrator or the chat-model sub-node): the
 * credential's base URL, key and headers, the node's extra headers over them, and its time
 * limits. "Timeout" bounds the whole model call and, so that a longer one can wait that
 * long, the wait for a response.
 */
export function chatConnectionFor(
	credential: CredentialConnection,
	options: ModelConnectionOptions,
): NodeChatConnection {
	// The node's extra headers win over the credential's.
	const headers = { ...credential.headers, ...options.headers };
	const connection: ChatConnection = {
		baseUrl: credential.baseUrl,
		headers,
		appName: 'n8n-nodes-toolbridge',
	};
	if (credential.apiKey !== '') connection.apiKey = credential.apiKey;
	if (options.timeoutMs !== undefined)
		connection.timeoutMs = connection.totalTimeoutMs = options.timeoutMs;
	if (options.firstTokenTimeoutMs !== undefined)
		connection.firstTokenTimeoutMs = options.firstTokenTimeoutMs;
	if (options.stallTimeoutMs !== undefined) connection.stallTimeoutMs = options.stallTimeoutMs;
	return {
		connection,
		secrets: [credential.apiKey, ...Object.values(headers)].filter((secret) => secret !== ''),
	};
}
