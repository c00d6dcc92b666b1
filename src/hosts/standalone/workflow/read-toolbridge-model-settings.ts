import type { INode } from 'n8n-workflow';
import {
	readChatModelSettings,
	type ChatModelSettings,
} from '../../../node-settings/read-chat-model-settings';
import { defaultModelId } from '../../../node-settings/read-model-parameter';
import { createNodeParameterReader } from './node-parameter-reader';
import { assertConnectionUsable, resolveConnectionFields } from './resolve-connection-fields';
import {
	credentialHint,
	credentialRecordOf,
	type ReadWorkflowAgentOptions,
} from './workflow-agent-settings';

/** This package's chat-model sub-node type. */
export const toolbridgeChatModelNodeType = 'n8n-nodes-toolbridge.toolbridgeChatModel';

/**
 * Reads a Toolbridge Chat Model node of a workflow export exactly as the node reads itself
 * (`readChatModelSettings`: credential, model, options), with the credential fields resolved
 * from the overrides, the supplied credential record and the environment. A Model left at its
 * default (not written in exports) is the node's default.
 *
 * @throws {AgentConfigurationError} for a missing API key, a bad base URL, bad extra headers or options.
 * @throws ExpressionError from n8n-workflow when a parameter expression is invalid.
 */
export async function readToolbridgeModelSettings(
	node: INode,
	options: ReadWorkflowAgentOptions,
): Promise<ChatModelSettings> {
	const reader = createNodeParameterReader(node, {
		item: { chatInput: options.chatInput },
		timezone: options.timezone,
	});
	const authentication = String(reader.get('authentication', 'openRouterApi'));
	const fields = resolveConnectionFields(
		credentialRecordOf(node, authentication, options.credentials),
		options,
	);
	assertConnectionUsable(fields, credentialHint(node, authentication));
	// The node's own settings reader, over the export's parameters and the resolved credential.
	const settings = await readChatModelSettings(
		(name, fallback) =>
			reader.get(
				name,
				name === 'model' ? defaultModelId : name === 'authentication' ? authentication : fallback,
			),
		async () => ({ apiKey: fields.apiKey, url: fields.url, extraHeaders: fields.extraHeaders }),
	);
	if (options.model) settings.config.model = options.model;
	return settings;
}
