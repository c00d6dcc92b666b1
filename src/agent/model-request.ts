import type { ChatMessage, ChatRequest, ContentPart } from '../chat/types';
import { modelFamilyFromModelId } from '../schema/model-family';
import type { AgentConfig } from './agent-state';

/** The model-related settings of a run: what any Chat Completions request to the model carries. */
export type ModelRequestConfig = Pick<
	AgentConfig,
	| 'model'
	| 'fallbackModels'
	| 'providerPreferences'
	| 'promptCaching'
	| 'reasoning'
	| 'temperature'
	| 'maxTokens'
	| 'topP'
	| 'topK'
	| 'frequencyPenalty'
	| 'presencePenalty'
	| 'seed'
	| 'stop'
	| 'providerOptions'
>;

/** Tool results at least this long (characters, ~1000 tokens: Anthropic's smallest cacheable prefix) get a cache breakpoint. */
export const longToolResultChars = 4000;
/** Breakpoints on tool results; with the system message's, 3 of Anthropic's 4. */
const toolResultBreakpoints = 2;

/**
 * The messages as sent: with prompt caching on and an Anthropic or Gemini model, OpenRouter
 * `cache_control` breakpoints on the system message and on the latest long tool results, so
 * each call reads the prefix the previous one wrote. The given messages are not changed.
 */
export function withPromptCaching(
	config: Pick<ModelRequestConfig, 'model' | 'promptCaching'>,
	messages: ChatMessage[],
): ChatMessage[] {
	const family = modelFamilyFromModelId(config.model);
	return config.promptCaching && (family === 'anthropic' || family === 'google')
		? withCacheBreakpoints(messages)
		: messages;
}

/** OpenRouter routing: `models` (the model first, then its fallbacks) and `provider` preferences. */
export function applyModelRouting(request: ChatRequest, config: ModelRequestConfig): void {
	if (config.fallbackModels && config.fallbackModels.length > 0)
		request.models = [
			config.model,
			...config.fallbackModels.filter((model) => model !== config.model),
		];
	if (config.providerPreferences && Object.keys(config.providerPreferences).length > 0)
		request.provider = config.providerPreferences;
}

/** Sampling and reasoning fields that were set, then `providerOptions` (their top-level keys win). */
export function applyModelSampling(
	request: ChatRequest,
	config: Omit<ModelRequestConfig, 'model'>,
): void {
	if (config.temperature !== undefined) request.temperature = config.temperature;
	if (config.maxTokens !== undefined) request.max_tokens = config.maxTokens;
	if (config.topP !== undefined) request.top_p = config.topP;
	if (config.topK !== undefined) request.top_k = config.topK;
	if (config.frequencyPenalty !== undefined) request.frequency_penalty = config.frequencyPenalty;
	if (config.presencePenalty !== undefined) request.presence_penalty = config.presencePenalty;
	if (config.seed !== undefined) request.seed = config.seed;
	if (config.stop !== undefined && config.stop.length > 0) request.stop = config.stop;
	if (config.reasoning !== undefined) request.reasoning = config.reasoning;
	if (config.providerOptions) Object.assign(request, config.providerOptions);
}

function withCacheBreakpoints(messages: ChatMessage[]): ChatMessage[] {
	const marked = new Set<number>();
	for (
		let index = messages.length - 1;
		index >= 0 && marked.size < toolResultBreakpoints;
		index--
	) {
		const message = messages[index];
		if (
			message.role === 'tool' &&
			typeof message.content === 'string' &&
			message.content.length >= longToolResultChars
		)
			marked.add(index);
	}
	return messages.map((message, index) => {
		if (message.role === 'system') return { ...message, content: withBreakpoint(message.content) };
		if (marked.has(index) && message.role === 'tool')
			return {
				...message,
				content: [
					{ type: 'text', text: message.content as string, cache_control: { type: 'ephemeral' } },
				],
			};
		return message;
	});
}

function withBreakpoint(content: string | ContentPart[]): ContentPart[] {
	if (typeof content === 'string')
		return [{ type: 'text', text: content, cache_control: { type: 'ephemeral' } }];
	const lastText = content.map((part) => part.type).lastIndexOf('text');
	return content.map((part, index) =>
		index === lastText && part.type === 'text'
			? { ...part, cache_control: { type: 'ephemeral' } }
			: part,
	);
}
