import type { ISupplyDataFunctions } from 'n8n-workflow';
import type { ToolbridgeError } from '../../../errors/toolbridge-error';
import type { ToolbridgeNativeModel } from './toolbridge-native-model';

/**
 * What the chat-model sub-node supplies on an n8n without `@n8n/ai-node-sdk` (before 2.x): no
 * LangChain model, but the sub-node's settings for the Agent Orchestrator's native path (it
 * calls the built-in client with them and logs each call through `ctx`, the sub-node's
 * context). Any other consumer (n8n's own AI Agent, a chain) gets `unavailable` — a clear
 * `AI_NODE_SDK_UNAVAILABLE` — from every model method it tries.
 */
export function nativeOnlyChatModel(
	native: ToolbridgeNativeModel,
	context: ISupplyDataFunctions,
	unavailable: ToolbridgeError,
): object {
	const refuse = (): never => {
		throw unavailable;
	};
	const model = {
		model: native.config.model,
		ctx: context,
		_llmType: () => 'toolbridge',
		// Async like LangChain's, so a caller that awaits gets a rejection, not a throw mid-expression.
		invoke: async () => refuse(),
		stream: async () => refuse(),
		generate: async () => refuse(),
		bindTools: refuse,
		withStructuredOutput: refuse,
	};
	// Not enumerable: the connection holds the API key, and nothing that prints the model may show it.
	Object.defineProperty(model, 'toolbridgeNative', { value: native, enumerable: false });
	return model;
}
