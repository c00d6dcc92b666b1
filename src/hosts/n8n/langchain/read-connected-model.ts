import type { IExecuteFunctions } from 'n8n-workflow';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import {
	isLangChainChatModel,
	langChainModelName,
	type LangChainChatModelLike,
} from '../../../langchain/langchain-model-caller';

/** A chat model sub-node connected to the orchestrator's Chat Model input. */
export interface ConnectedChatModel {
	model: LangChainChatModelLike;
	/** The model id it reports, e.g. gpt-4o-mini. */
	name: string;
}

/**
 * The chat model connected to the node's `ai_languageModel` input, if any. A context without
 * connection data (the standalone host's parameter reader) has none.
 *
 * @throws {AgentConfigurationError} `model` when the connected node supplies something that is
 * not a LangChain chat model.
 * @throws what the sub-node's `supplyData` throws (e.g. its credential is missing).
 */
export async function readConnectedModel(
	context: Pick<IExecuteFunctions, 'getInputConnectionData'>,
	itemIndex: number,
): Promise<ConnectedChatModel | undefined> {
	if (typeof context.getInputConnectionData !== 'function') return undefined;
	let supplied = (await context.getInputConnectionData(
		'ai_languageModel' as never,
		itemIndex,
	)) as unknown;
	if (Array.isArray(supplied)) supplied = supplied[0];
	if (supplied === undefined || supplied === null) return undefined;
	if (!isLangChainChatModel(supplied)) {
		throw new AgentConfigurationError(
			'model',
			'The node connected to the Chat Model input does not supply a chat model. Connect a chat model sub-node (OpenAI Chat Model, Anthropic Chat Model, Toolbridge Chat Model …).',
		);
	}
	return { model: supplied, name: langChainModelName(supplied) };
}
