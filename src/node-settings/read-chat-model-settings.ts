import type { IDataObject, ISupplyDataFunctions } from 'n8n-workflow';
import { chatServerOf } from '../chat/chat-server';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { chatConnectionFor } from './chat-connection-for';
import { readCredentialConnection } from './read-credential-connection';
import { readModelOptions } from './read-model-options';
import { readModelParameter } from './read-model-parameter';
import type { ToolbridgeNativeModel } from '../hosts/n8n/chat-model/toolbridge-native-model';

/**
 * Reads the sub-node's credential, model (a string or a resource locator) and options into
 * the {@link ToolbridgeNativeModel} its chat model runs on — the same readers as the
 * orchestrator's, so both send the same request for the same settings.
 *
 * @throws {AgentConfigurationError} for an empty model, a credential without a base URL, bad
 * extra headers, provider options or stop sequences.
 * @throws what n8n's `getCredentials` / `getNodeParameter` throw.
 */
export async function readChatModelSettings(
	context: ISupplyDataFunctions,
	itemIndex: number,
): Promise<ToolbridgeNativeModel> {
	const credential = await readCredentialConnection(context, itemIndex);
	const model = readModelOptions(context.getNodeParameter('options', itemIndex, {}) as IDataObject);
	const { connection, secrets } = chatConnectionFor(credential, model.connection);
	const modelId = readModelParameter(
		context.getNodeParameter('model', itemIndex, '', { extractValue: true }),
	);
	if (modelId === '')
		throw new AgentConfigurationError(
			'model',
			'The model is empty. Pick one from the list or give a model id such as anthropic/claude-sonnet-4.',
		);

	const config = { model: modelId, server: chatServerOf(connection), ...model.config };
	return { connection, config, secrets };
}
