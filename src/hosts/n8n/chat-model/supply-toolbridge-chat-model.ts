import type { ISupplyDataFunctions, SupplyData } from 'n8n-workflow';
import { loadAiNodeSdk, type AiNodeSdk } from './load-ai-node-sdk';
import { readChatModelSettings } from './read-chat-model-settings';
import { createToolbridgeChatModel } from './toolbridge-chat-model';

/**
 * The chat-model sub-node's `supplyData`: its settings as a Toolbridge chat model, handed to
 * n8n through the SDK's `supplyModel` (a LangChain adapter with n8n's tracing, so each call
 * shows in the Logs view). `sdk` is loaded from n8n unless given (tests).
 *
 * @throws ToolbridgeError `AI_NODE_SDK_UNAVAILABLE` on an n8n without @n8n/ai-node-sdk.
 * @throws {AgentConfigurationError} for bad settings (see `readChatModelSettings`).
 */
export async function supplyToolbridgeChatModel(context: ISupplyDataFunctions, itemIndex: number, sdk: AiNodeSdk = loadAiNodeSdk()): Promise<SupplyData> {
	const native = await readChatModelSettings(context, itemIndex);
	return sdk.supplyModel(context, createToolbridgeChatModel(sdk, native));
}
