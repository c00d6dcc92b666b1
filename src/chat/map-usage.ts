import type { WireUsage } from './chat-chunk';
import type { Usage } from './types';

/** Wire usage (OpenAI + OpenRouter fields) → {@link Usage}. Missing counts are 0; optional ones absent. */
export function mapUsage(wire: WireUsage): Usage {
	const promptTokens = numberOr(wire.prompt_tokens, 0);
	const completionTokens = numberOr(wire.completion_tokens, 0);
	const usage: Usage = {
		promptTokens,
		completionTokens,
		totalTokens: numberOr(wire.total_tokens, promptTokens + completionTokens),
	};
	const reasoningTokens = wire.completion_tokens_details?.reasoning_tokens;
	if (typeof reasoningTokens === 'number') usage.reasoningTokens = reasoningTokens;
	const cachedTokens = wire.prompt_tokens_details?.cached_tokens ?? wire.cache_read_input_tokens;
	if (typeof cachedTokens === 'number') usage.cachedTokens = cachedTokens;
	const cacheWriteTokens =
		wire.prompt_tokens_details?.cache_write_tokens ??
		wire.prompt_tokens_details?.cache_creation_tokens ??
		wire.cache_creation_input_tokens;
	if (typeof cacheWriteTokens === 'number') usage.cacheWriteTokens = cacheWriteTokens;
	if (typeof wire.cost === 'number') usage.cost = wire.cost;
	return usage;
}

function numberOr(value: unknown, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
