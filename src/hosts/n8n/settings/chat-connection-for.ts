import type { ChatConnection } from '../../../agent/create-chat-model-caller';
import type { CredentialConnection } from './read-credential-connection';
import type { ModelOptionSettings } from './read-model-options';

/** Where a node's model calls go, and what they must never show. */
export interface NodeChatConnection {
	connection: ChatConnection;
	/** The credential's API key and every extra header value: what the node redacts. */
	secrets: string[];
}

/**
 * The chat connection of a node (the orchestrator or the chat-model sub-node): the
 * credential's base URL, key and headers, the node's extra headers over them, and its time
 * limits. "Timeout" (seconds) bounds the whole model call and, so that a longer one can wait
 * that long, the wait for a response.
 */
export function chatConnectionFor(
	credential: CredentialConnection,
	model: Pick<ModelOptionSettings, 'headers' | 'firstTokenTimeoutMs' | 'stallTimeoutMs'>,
	timeoutSeconds?: number,
): NodeChatConnection {
	// The node's extra headers win over the credential's.
	const headers = { ...credential.headers, ...model.headers };
	const connection: ChatConnection = {
		baseUrl: credential.baseUrl,
		headers,
		appName: 'n8n-nodes-toolbridge',
	};
	if (credential.apiKey !== '') connection.apiKey = credential.apiKey;
	const timeoutMs = timeoutMsOf(timeoutSeconds);
	if (timeoutMs !== undefined) connection.timeoutMs = connection.totalTimeoutMs = timeoutMs;
	if (model.firstTokenTimeoutMs !== undefined)
		connection.firstTokenTimeoutMs = model.firstTokenTimeoutMs;
	if (model.stallTimeoutMs !== undefined) connection.stallTimeoutMs = model.stallTimeoutMs;
	return {
		connection,
		secrets: [credential.apiKey, ...Object.values(headers)].filter((secret) => secret !== ''),
	};
}

/** A node's "Timeout" (seconds) in ms, when it was given; 0 and below: no limit. */
export function timeoutMsOf(timeoutSeconds: number | undefined): number | undefined {
	return typeof timeoutSeconds === 'number' && !Number.isNaN(timeoutSeconds)
		? Math.max(0, timeoutSeconds) * 1000
		: undefined;
}
