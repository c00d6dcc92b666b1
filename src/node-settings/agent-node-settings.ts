import { withoutModelOptions } from '../agent/model-options';
import type { ChatConnection } from '../agent/create-chat-model-caller';
import { chatServerOf } from '../chat/chat-server';
import { chatConnectionFor } from './chat-connection-for';
import type { AgentNodeParameters } from './read-agent-node-parameters';
import type { ChatModelSettings } from './read-chat-model-settings';
import type { CredentialConnection } from './read-credential-connection';

/** Everything one run of an agent node needs from its parameters, with its model settled. */
export interface AgentNodeSettings extends Omit<AgentNodeParameters, 'modelConnection'> {
	/** The built-in client's connection; absent when a connected LangChain chat model runs (inside n8n only). */
	connection?: ChatConnection;
	/** What the run redacts from everything it reports: the credential's API key and the extra header values. */
	secrets: string[];
}

/**
 * The node's own model: its credential, the options' extra headers over the credential's and
 * the options' time limits; the config names the server the credential points at.
 */
export function withOwnCredential(
	parameters: AgentNodeParameters,
	credential: CredentialConnection,
): AgentNodeSettings & { connection: ChatConnection } {
	const { modelConnection, ...settings } = parameters;
	const { connection, secrets } = chatConnectionFor(credential, modelConnection);
	return {
		...settings,
		config: { ...settings.config, server: chatServerOf(connection) },
		connection,
		secrets,
	};
}

/**
 * A connected Toolbridge Chat Model (inside n8n the sub-node's own settings, in the standalone
 * host the chat-model node of the export): its connection, model config and secrets; of the
 * node's own config only the loop's fields carry over ({@link connectedOnly}).
 */
export function withChatModel(
	parameters: AgentNodeParameters,
	chatModel: ChatModelSettings,
): AgentNodeSettings & { connection: ChatConnection } {
	const { modelConnection: _modelConnection, ...settings } = parameters;
	return {
		...settings,
		config: { ...connectedOnly(settings.config), ...chatModel.config },
		connection: chatModel.connection,
		secrets: chatModel.secrets,
	};
}

/**
 * Any other connected chat model (a LangChain model inside n8n): its own settings and
 * credential rule; the config names it and keeps only the loop's fields. A structured answer
 * is asked for with a forced tool (every tool-calling model has that), unless the user chose
 * otherwise.
 */
export function withConnectedModel(
	parameters: AgentNodeParameters,
	modelName: string,
): AgentNodeSettings {
	const { modelConnection: _modelConnection, ...settings } = parameters;
	const loopConfig = connectedOnly(settings.config);
	if (loopConfig.structuredOutput?.strategy === 'auto')
		loopConfig.structuredOutput = { ...loopConfig.structuredOutput, strategy: 'tool' };
	return { ...settings, config: { ...loopConfig, model: modelName }, secrets: [] };
}

/**
 * The config fields that still apply with a connected model: the loop's (system message,
 * limits, tool choice, output format). The model options (sampling, fallbacks, routing,
 * caching, provider options: the model-options table) belong to the built-in client; the
 * connected model has its own.
 */
export function connectedOnly(config: AgentNodeSettings['config']): AgentNodeSettings['config'] {
	return withoutModelOptions(config);
}
