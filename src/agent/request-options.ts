import type { ChatRequest } from '../chat/types';
import type { AgentConfig } from './agent-state';

/** The per-request model settings every mode sends the same way (full loop, validator). */
export type ModelRequestOptions = Pick<
	AgentConfig,
	'model' | 'fallbackModels' | 'providerPreferences' | 'temperature' | 'maxTokens' | 'topP' | 'topK' | 'frequencyPenalty' | 'presencePenalty' | 'seed' | 'stop' | 'reasoning' | 'providerOptions'
>;

/**
 * OpenRouter routing: `models` (the model first, then the fallbacks) and `provider`
 * preferences. The chat caller removes them for other servers (`withoutOpenRouterFields`).
 */
export function applyRoutingOptions(request: ChatRequest, config: ModelRequestOptions): void {
	if (config.fallbackModels && config.fallbackModels.length > 0) request.models = [config.model, ...config.fallbackModels.filter((model) => model !== config.model)];
	if (config.providerPreferences && Object.keys(config.providerPreferences).length > 0) request.provider = config.providerPreferences;
}

/** Sampling and reasoning fields that were given, then `providerOptions` (their top-level keys win). */
export function applySamplingOptions(request: ChatRequest, config: ModelRequestOptions): void {
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
