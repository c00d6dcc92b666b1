import type { ISupplyDataFunctions } from 'n8n-workflow';
import { chatServerOf } from '../../../chat/chat-server';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import { chatConnectionFor } from '../settings/chat-connection-for';
import { readCredentialConnection } from '../settings/read-credential-connection';
import { readModelOptions, type ModelNodeOptions } from '../settings/read-model-options';
import { readModelParameter } from '../settings/read-model-parameter';
import type { ToolbridgeNativeModel } from './toolbridge-native-model';

/** The chat-model sub-node's "Options" collection, as n8n hands it over (only options the user added). */
export interface ChatModelNodeOptions extends Pick<
	ModelNodeOptions,
	| 'topP'
	| 'topK'
	| 'frequencyPenalty'
	| 'presencePenalty'
	| 'seed'
	| 'stopSequences'
	| 'extraHeaders'
	| 'providerOptions'
	| 'fallbackModels'
	| 'providerOrder'
	| 'providerOnly'
	| 'providerIgnore'
	| 'providerSort'
	| 'allowFallbacks'
	| 'requireParameters'
	| 'dataCollection'
	| 'maxPricePrompt'
	| 'maxPriceCompletion'
	| 'promptCaching'
	| 'firstTokenTimeout'
	| 'stallTimeout'
> {
	temperature?: number;
	maxTokens?: number;
	reasoningEffort?: 'default' | 'minimal' | 'low' | 'medium' | 'high';
	timeout?: number;
}

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
	const options = context.getNodeParameter('options', itemIndex, {}) as ChatModelNodeOptions;
	const model = readModelOptions(options);
	const { connection, secrets } = chatConnectionFor(credential, model, options.timeout);
	const modelId = readModelParameter(
		context.getNodeParameter('model', itemIndex, '', { extractValue: true }),
	);
	if (modelId === '')
		throw new AgentConfigurationError(
			'model',
			'The model is empty. Pick one from the list or give a model id such as anthropic/claude-sonnet-4.',
		);

	const config: ToolbridgeNativeModel['config'] = {
		model: modelId,
		server: chatServerOf(connection),
	};
	for (const [key, value] of Object.entries(model.config))
		if (value !== undefined) (config as Record<string, unknown>)[key] = value;
	if (options.temperature !== undefined) config.temperature = options.temperature;
	if (options.maxTokens !== undefined) config.maxTokens = options.maxTokens;
	if (options.reasoningEffort && options.reasoningEffort !== 'default')
		config.reasoning = { effort: options.reasoningEffort };
	return { connection, config, secrets };
}
