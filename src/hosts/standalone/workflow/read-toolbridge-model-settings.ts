import type { INode, ISupplyDataFunctions } from 'n8n-workflow';
import { readChatModelSettings } from '../../../node-settings/read-chat-model-settings';
import { defaultModelId } from '../../../node-settings/read-model-parameter';
import type { ToolbridgeNativeModel } from '../../n8n/chat-model/toolbridge-native-model';
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
): Promise<ToolbridgeNativeModel> {
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
	// The node's own settings reader, over a context that answers the two calls it makes.
	const context = {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			reader.get(
				name,
				name === 'model' ? defaultModelId : name === 'authentication' ? authentication : fallback,
			),
		getCredentials: async () => ({
			apiKey: fields.apiKey,
			url: fields.url,
			extraHeaders: fields.extraHeaders,
		}),
	} as unknown as ISupplyDataFunctions;
	const settings = await readChatModelSettings(context, 0);
	if (options.model) settings.config.model = options.model;
	return settings;
}
