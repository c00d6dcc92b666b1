import type {
	ChatModel,
	ChatModelConfig,
	GenerateResult,
	Message,
	StreamChunk,
	Tool,
} from '@n8n/ai-node-sdk';
import { createChatModelCaller } from '../../../agent/create-chat-model-caller';
import { modelRequest, samplingOptionKeys, type ModelSettings } from '../../../agent/model-options';
import { Redactor } from '../../../chat/redactor';
import type { AssistantTurn, ChatRequest, StreamPart } from '../../../chat/types';
import type { ToolbridgeNativeModel } from './toolbridge-native-model';
import type { AiNodeSdk } from './load-ai-node-sdk';
import { PartQueue } from './part-queue';
import { toChatMessages } from './sdk-messages';
import { toClosingChunks, toGenerateResult, toStreamChunk } from './sdk-result';
import { toWireTools } from './sdk-tools';

/** The SDK's per-call config, plus LangChain's `signal` (n8n's adapter passes its call options through). */
type CallConfig = ChatModelConfig & { signal?: AbortSignal };

// Kept beside the instances, not on them: the connection holds the API key, and nothing that
// prints or serializes a model (util.inspect, JSON, LangChain's lc_kwargs) may show it.
const natives = new WeakMap<object, ToolbridgeNativeModel>();

/** A Toolbridge chat model: an SDK `ChatModel` that also carries its {@link ToolbridgeNativeModel}. */
export type ToolbridgeChatModel = ChatModel & { readonly toolbridgeNative: ToolbridgeNativeModel };

const classes = new WeakMap<
	AiNodeSdk['BaseChatModel'],
	new (native: ToolbridgeNativeModel) => ToolbridgeChatModel
>();

/**
 * A chat model on the SDK's `BaseChatModel` whose `generate` and `stream` run the package's
 * own client (`createChatModelCaller`: streaming Chat Completions, OpenRouter fallbacks and
 * routing, reasoning_details round trip, prompt caching, per-family tool schemas, stall and
 * first-token limits). Errors leave it redacted of the native model's secrets.
 */
export function createToolbridgeChatModel(
	sdk: AiNodeSdk,
	native: ToolbridgeNativeModel,
): ToolbridgeChatModel {
	let ModelClass = classes.get(sdk.BaseChatModel);
	if (!ModelClass) {
		ModelClass = defineModelClass(sdk.BaseChatModel);
		classes.set(sdk.BaseChatModel, ModelClass);
	}
	return new ModelClass(native);
}

// The class extends the SDK's BaseChatModel as n8n loaded it, so it is made at run time.
function defineModelClass(Base: AiNodeSdk['BaseChatModel']) {
	return class ToolbridgeSdkChatModel extends Base<CallConfig> {
		constructor(native: ToolbridgeNativeModel) {
			super('toolbridge', native.config.model);
			natives.set(this, native);
		}

		get toolbridgeNative(): ToolbridgeNativeModel {
			return natives.get(this)!;
		}

		/** The SDK's clone with the tools added, carrying the same native model. */
		override withTools(tools: Tool[]): ChatModel<CallConfig> {
			const clone = super.withTools(tools);
			natives.set(clone, this.toolbridgeNative);
			return clone;
		}

		async generate(messages: Message[], config?: CallConfig): Promise<GenerateResult> {
			const call = this.prepare(messages, config);
			try {
				return toGenerateResult(await call.run());
			} catch (error) {
				throw call.redactor.error(error);
			}
		}

		async *stream(
			messages: Message[],
			config?: CallConfig,
		): AsyncGenerator<StreamChunk, void, undefined> {
			const call = this.prepare(messages, config);
			const queue = new PartQueue<StreamChunk>();
			const done = call.run((part) => {
				const chunk = toStreamChunk(part);
				if (chunk) queue.push(chunk);
			});
			done.then(
				(turn) => {
					for (const chunk of toClosingChunks(turn)) queue.push(chunk);
					queue.close();
				},
				(error: unknown) => queue.fail(call.redactor.error(error)),
			);
			let finished = false;
			try {
				yield* queue.drain();
				finished = true;
			} finally {
				// The consumer stopped early: stop the request too.
				if (!finished) call.abort();
			}
		}

		private prepare(messages: Message[], config: CallConfig | undefined) {
			const native = this.toolbridgeNative;
			const settings = { ...this.defaultConfig, ...config };
			const headers = { ...native.connection.headers, ...definedHeaders(settings.headers) };
			const redactor = new Redactor([...native.secrets, ...Object.values(headers)]);
			const connection = { ...native.connection, headers };
			if (typeof settings.timeout === 'number' && settings.timeout > 0)
				connection.timeoutMs = connection.totalTimeoutMs = settings.timeout;
			const model = modelConfig(native.config, settings);
			const request = chatRequest(model, messages, this.tools);
			const controller = new AbortController();
			const signals = [settings.abortSignal, settings.signal].filter(
				(signal): signal is AbortSignal => signal !== undefined,
			);
			const signal = AbortSignal.any([controller.signal, ...signals]);
			const callModel = createChatModelCaller(connection);
			return {
				redactor,
				abort: () => controller.abort(),
				run: (onPart?: (part: StreamPart) => void): Promise<AssistantTurn> =>
					callModel(request, { signal, onPart, fallbackModels: model.fallbackModels }),
			};
		}
	};
}

/** The node's model settings with the call's own sampling settings over them (the SDK names `stop` `stopSequences`). */
function modelConfig(base: ToolbridgeNativeModel['config'], settings: CallConfig): ModelSettings {
	const config: Record<string, unknown> = { ...base };
	for (const key of samplingOptionKeys) {
		const value = (settings as Record<string, unknown>)[key === 'stop' ? 'stopSequences' : key];
		if (value !== undefined && !(Array.isArray(value) && value.length === 0)) config[key] = value;
	}
	return config as unknown as ModelSettings;
}

/** The request for one call: the model settings for its server, with the tools shaped for the model's family. */
function chatRequest(config: ModelSettings, messages: Message[], tools: Tool[]): ChatRequest {
	return modelRequest(config, toChatMessages(messages), (request) => {
		if (tools.length > 0) request.tools = toWireTools(tools, config.model);
	});
}

function definedHeaders(
	headers: Record<string, string | undefined> | undefined,
): Record<string, string> {
	const defined: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers ?? {}))
		if (typeof value === 'string') defined[name] = value;
	return defined;
}
