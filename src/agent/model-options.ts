import {
	chatServerCapabilities,
	type ChatServer,
	type ChatServerCapabilities,
} from '../chat/chat-server';
import type { ProviderPreferences } from '../chat/openrouter-fields';
import type { ChatMessage, ChatRequest } from '../chat/types';
import {
	modelFamilies,
	modelFamilyFromModelId,
	type ModelFamilyCapabilities,
} from '../schema/model-family';
import { withCacheBreakpoints } from './prompt-cache-breakpoints';

/**
 * The model settings of a run: what every Chat Completions request to the model carries, in
 * the full loop, validator mode, nested agents and the chat-model sub-node alike. Plain JSON.
 */
export interface ModelSettings {
	model: string;
	/**
	 * The server the requests are built for; absent: OpenRouter (see `ChatServer`). The hosts'
	 * readers set it from the connection; `runAgent` and `runValidator` take it from
	 * `createChatModelCaller`'s `server` when it is absent. Driving `nextAction` yourself, set it
	 * to your caller's `server`, and pass `fallbackModels` with each call.
	 */
	server?: ChatServer;
	/** OpenRouter prompt caching: `cache_control` breakpoints on the system message and the latest long tool results, for families that need them. */
	promptCaching?: boolean;
	/**
	 * Models to try when `model` fails. On OpenRouter sent as `models` (OpenRouter picks);
	 * elsewhere the chat caller tries them in order when a call fails before any output.
	 */
	fallbackModels?: string[];
	/** OpenRouter `provider` routing preferences (other servers never get them). */
	providerPreferences?: ProviderPreferences;
	temperature?: number;
	maxTokens?: number;
	/** `top_p`: nucleus sampling, 0–1. */
	topP?: number;
	/** `top_k` (OpenRouter and most open-model servers; OpenAI ignores it). */
	topK?: number;
	/** `frequency_penalty`, -2–2. */
	frequencyPenalty?: number;
	/** `presence_penalty`, -2–2. */
	presencePenalty?: number;
	/** `seed`, for repeatable sampling where the provider supports it. */
	seed?: number;
	/** `stop`: up to 4 sequences that end the answer. */
	stop?: string[];
	/** Reasoning: OpenRouter `reasoning`, elsewhere `reasoning_effort`. */
	reasoning?: ChatRequest['reasoning'];
	/** Merged into the request body last (top-level keys win): any field the server knows. */
	providerOptions?: Record<string, unknown>;
}

/** The settings in the model-options table: every model setting but the model and its server. */
export type ModelOptionKey = Exclude<keyof ModelSettings, 'model' | 'server'>;

/** What a row writes with: the run's settings and the capabilities of its server and model family. */
interface WriteContext {
	config: ModelSettings;
	server: ChatServerCapabilities;
	family: ModelFamilyCapabilities;
}

/** One model option: where it goes on the wire and how it is written. */
export interface ModelOption<Key extends ModelOptionKey = ModelOptionKey> {
	/** The request fields it may write (`*`: any top-level field). */
	wire: readonly string[];
	/** Written before the tools (the messages and OpenRouter routing) or after them: the wire's key order. */
	place: 'before-tools' | 'after-tools';
	/** A sampling setting a caller may override per call (the chat-model SDK's call options). */
	sampling?: true;
	write(request: ChatRequest, value: NonNullable<ModelSettings[Key]>, context: WriteContext): void;
}

/**
 * THE model options, in the order they are written (the wire's key order). Every request
 * builder (full loop, validator, chat-model sub-node) writes them through {@link modelRequest};
 * a new option is a row here, a field of {@link ModelSettings} and a row of the n8n
 * parameters (`node-settings/model-option-parameters`).
 */
export const modelOptions: { readonly [Key in ModelOptionKey]: ModelOption<Key> } = {
	promptCaching: {
		wire: ['messages'],
		place: 'before-tools',
		write: (request, on, { server, family }) => {
			if (on && server.cacheControl && family.cacheBreakpoints)
				request.messages = withCacheBreakpoints(request.messages);
		},
	},
	fallbackModels: {
		wire: ['models'],
		place: 'before-tools',
		// Elsewhere the chat caller tries them (CallModel's `fallbackModels`).
		write: (request, models, { config, server }) => {
			if (server.routingFields && models.length > 0)
				request.models = [config.model, ...models.filter((model) => model !== config.model)];
		},
	},
	providerPreferences: {
		wire: ['provider'],
		place: 'before-tools',
		write: (request, provider, { server }) => {
			if (server.routingFields && Object.keys(provider).length > 0) request.provider = provider;
		},
	},
	temperature: field('temperature'),
	maxTokens: field('max_tokens'),
	topP: field('top_p'),
	topK: field('top_k'),
	frequencyPenalty: field('frequency_penalty'),
	presencePenalty: field('presence_penalty'),
	seed: field('seed'),
	stop: {
		wire: ['stop'],
		place: 'after-tools',
		sampling: true,
		write: (request, stop) => {
			if (stop.length > 0) request.stop = stop;
		},
	},
	reasoning: {
		wire: ['reasoning', 'reasoning_effort'],
		place: 'after-tools',
		write: (request, reasoning, { server }) => server.writeReasoning(request, reasoning),
	},
	providerOptions: {
		wire: ['*'],
		place: 'after-tools',
		write: (request, options) => {
			Object.assign(request, options);
		},
	},
};

/** A sampling setting written as one body field. */
function field<Key extends ModelOptionKey>(wire: string): ModelOption<Key> {
	return {
		wire: [wire],
		place: 'after-tools',
		sampling: true,
		write: (request, value) => {
			request[wire] = value;
		},
	};
}

/** The model options' keys, in table order. */
export const modelOptionKeys = Object.keys(modelOptions) as ModelOptionKey[];

/** The options a caller may set per call (sampling: temperature … stop), in table order. */
export const samplingOptionKeys = modelOptionKeys.filter((key) => modelOptions[key].sampling);

/**
 * A Chat Completions request with the run's model settings, built for the server it goes
 * to (nothing is written that the server does not take): `model`, the messages (with cache
 * breakpoints where server and family use them), OpenRouter routing, then what `between`
 * adds (tools, tool choice, output constraints), then sampling, reasoning and provider
 * options (their top-level keys win). The given messages are not changed.
 */
export function modelRequest(
	config: ModelSettings,
	messages: ChatMessage[],
	between?: (request: ChatRequest) => void,
): ChatRequest {
	const context: WriteContext = {
		config,
		server: chatServerCapabilities(config.server),
		family: modelFamilies[modelFamilyFromModelId(config.model)],
	};
	const request: ChatRequest = { model: config.model, messages };
	writeOptions(request, context, 'before-tools');
	between?.(request);
	writeOptions(request, context, 'after-tools');
	return request;
}

function writeOptions(
	request: ChatRequest,
	context: WriteContext,
	place: ModelOption['place'],
): void {
	for (const key of modelOptionKeys) {
		const option = modelOptions[key] as ModelOption;
		const value = context.config[key];
		if (option.place === place && value !== undefined)
			option.write(request, value as never, context);
	}
}

/**
 * The model settings of a config (its model, server and every model option that is set),
 * without the loop's own settings: what a validator run, or any other request builder,
 * takes over from the node's settings. Both hosts' validators get theirs from here.
 */
export function modelSettingsOf(config: ModelSettings): ModelSettings {
	const settings: Partial<Record<keyof ModelSettings, unknown>> = { model: config.model };
	if (config.server !== undefined) settings.server = config.server;
	for (const key of modelOptionKeys) if (config[key] !== undefined) settings[key] = config[key];
	return settings as ModelSettings;
}

/** The config without its model options (the model, its server and the loop's settings stay). */
export function withoutModelOptions<Config extends ModelSettings>(
	config: Config,
): Omit<Config, ModelOptionKey> {
	const rest: Partial<Config> = { ...config };
	for (const key of modelOptionKeys) delete rest[key];
	return rest as Omit<Config, ModelOptionKey>;
}

/**
 * The config with its caller's server when it names none: a run started on
 * `createChatModelCaller` is built for the server that caller talks to.
 */
export function withCallerServer<Config extends Pick<ModelSettings, 'server'>>(
	config: Config,
	caller: { readonly server?: ChatServer },
): Config {
	return config.server !== undefined || caller.server === undefined
		? config
		: { ...config, server: caller.server };
}
