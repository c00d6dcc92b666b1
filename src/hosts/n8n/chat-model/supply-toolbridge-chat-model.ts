import type { ISupplyDataFunctions, SupplyData } from 'n8n-workflow';
import { loadAiNodeSdk, type AiNodeSdk } from './load-ai-node-sdk';
import { readChatModelSettings } from '../../../node-settings/read-chat-model-settings';
import { createToolbridgeChatModel } from './toolbridge-chat-model';
import { nativeOnlyChatModel } from './native-only-chat-model';
import { ToolbridgeError } from '../../../errors/toolbridge-error';

/**
 * The chat-model sub-node's `supplyData`: its settings as a Toolbridge chat model, handed to
 * n8n through the SDK's `supplyModel` (a LangChain adapter with n8n's tracing, so each call
 * shows in the Logs view). On an n8n without `@n8n/ai-node-sdk` (before 2.x) it supplies
 * only what the Agent Orchestrator's native path needs (`nativeOnlyChatModel`); other
 * consumers then get `AI_NODE_SDK_UNAVAILABLE` when they call it. `loadSdk` is for tests.
 *
 * @throws {AgentConfigurationError} for bad settings (see `readChatModelSettings`).
 */
export async function supplyToolbridgeChatModel(
	context: ISupplyDataFunctions,
	itemIndex: number,
	loadSdk: () => AiNodeSdk = loadAiNodeSdk,
): Promise<SupplyData> {
	const native = await readChatModelSettings(
		// The Model is a resource locator: n8n extracts its value.
		(name, fallback) =>
			name === 'model'
				? context.getNodeParameter(name, itemIndex, fallback as never, { extractValue: true })
				: context.getNodeParameter(name, itemIndex, fallback as never),
		(type) => context.getCredentials(type, itemIndex),
	);
	let sdk: AiNodeSdk;
	try {
		sdk = loadSdk();
	} catch (error) {
		if (!(error instanceof ToolbridgeError)) throw error;
		return { response: nativeOnlyChatModel(native, context, error) };
	}
	return sdk.supplyModel(context, createToolbridgeChatModel(sdk, native));
}
