import type { ChatModelSettings } from '../../../node-settings/read-chat-model-settings';

/**
 * What a Toolbridge Chat Model sub-node carries for callers that run the package's own client
 * instead of going through LangChain (the orchestrator): its settings as
 * `readChatModelSettings` reads them — where the model lives, its model-related config
 * fields, and the secrets to redact (API key, header values).
 */
export type ToolbridgeNativeModel = ChatModelSettings;

/**
 * The {@link ToolbridgeNativeModel} behind a connected `ai_languageModel`: n8n's
 * LangchainChatModelAdapter wrapping a Toolbridge Chat Model (it keeps the model in
 * `.chatModel`; after `bindTools` too), or that model itself. Undefined for any other model.
 * Duck-typed, so it works across copies of this package.
 */
export function toolbridgeNativeModelOf(connected: unknown): ToolbridgeNativeModel | undefined {
	if (typeof connected !== 'object' || connected === null) return undefined;
	const own = nativeOf(connected);
	if (own) return own;
	const inner = (connected as { chatModel?: unknown }).chatModel;
	return typeof inner === 'object' && inner !== null ? nativeOf(inner) : undefined;
}

function nativeOf(model: object): ToolbridgeNativeModel | undefined {
	const native = (model as { toolbridgeNative?: unknown }).toolbridgeNative;
	if (typeof native !== 'object' || native === null) return undefined;
	const { connection, config, secrets } = native as Partial<ToolbridgeNativeModel>;
	if (
		typeof connection?.baseUrl !== 'string' ||
		typeof config?.model !== 'string' ||
		!Array.isArray(secrets)
	)
		return undefined;
	return native as ToolbridgeNativeModel;
}
