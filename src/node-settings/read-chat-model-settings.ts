import type { AgentConfig } from '../agent/agent-state';
import type { ChatConnection } from '../agent/create-chat-model-caller';
import { chatServerOf } from '../chat/chat-server';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { chatConnectionFor } from './chat-connection-for';
import type { CredentialGetter, NodeParameterGetter } from './node-parameter-getter';
import { readCredentialConnection } from './read-credential-connection';
import { readModelOptions } from './read-model-options';
import { readModelParameter } from './read-model-parameter';

/**
 * A chat model's settings, as the built-in client runs them: where the model lives, its
 * model-related config fields, and the secrets to redact (API key, header values). What a
 * Toolbridge Chat Model sub-node reads and carries, and what the standalone host reads from a
 * workflow's chat-model node.
 */
export interface ChatModelSettings {
	connection: ChatConnection;
	config: Partial<AgentConfig> & { model: string };
	secrets: string[];
}

/**
 * Reads a Toolbridge Chat Model node's credential, model (a string or a resource locator)
 * and options into its {@link ChatModelSettings} — the same readers as the orchestrator's, so
 * both send the same request for the same settings. Both hosts call it, each with its own
 * getters.
 *
 * @throws {AgentConfigurationError} for an empty model, a credential without a base URL, bad
 * extra headers, provider options or stop sequences.
 * @throws what `get` / `getCredential` throw.
 */
export async function readChatModelSettings(
	get: NodeParameterGetter,
	getCredential: CredentialGetter,
): Promise<ChatModelSettings> {
	const credential = await readCredentialConnection(get, getCredential);
	const model = readModelOptions(get('options', {}) as Record<string, unknown>);
	const { connection, secrets } = chatConnectionFor(credential, model.connection);
	const modelId = readModelParameter(get('model', ''));
	if (modelId === '')
		throw new AgentConfigurationError(
			'model',
			'The model is empty. Pick one from the list or give a model id such as anthropic/claude-sonnet-4.',
		);

	const config = { model: modelId, server: chatServerOf(connection), ...model.config };
	return { connection, config, secrets };
}
