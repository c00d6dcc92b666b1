import { randomUUID } from 'node:crypto';
import type { Usage } from 'n8n-nodes-toolbridge';

/** OpenAI's usage object. */
export interface CompletionUsage {
	prompt_tokens: number;
	completion_tokens: number;
	total_tokens: number;
	completion_tokens_details?: { reasoning_tokens: number };
	prompt_tokens_details?: { cached_tokens: number };
}

/** The fixed fields of one completion's objects (shared by all chunks of a stream). */
export interface CompletionIdentity {
	id: string;
	created: number;
	model: string;
}

/** A new completion id (`chatcmpl-…`) and time for `model`. */
export function newCompletionIdentity(model: string): CompletionIdentity {
	return {
		id: `chatcmpl-${randomUUID().replaceAll('-', '')}`,
		created: Math.floor(Date.now() / 1000),
		model,
	};
}

/** Our usage as OpenAI's. */
export function toCompletionUsage(usage: Usage): CompletionUsage {
	const result: CompletionUsage = {
		prompt_tokens: usage.promptTokens,
		completion_tokens: usage.completionTokens,
		total_tokens: usage.totalTokens,
	};
	if (usage.reasoningTokens !== undefined)
		result.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
	if (usage.cachedTokens !== undefined)
		result.prompt_tokens_details = { cached_tokens: usage.cachedTokens };
	return result;
}

/** A `chat.completion` (non-streaming answer). */
export function chatCompletion(
	identity: CompletionIdentity,
	content: string,
	finishReason: string,
	usage: Usage,
): object {
	return {
		...identity,
		object: 'chat.completion',
		choices: [
			{
				index: 0,
				message: { role: 'assistant', content, refusal: null },
				logprobs: null,
				finish_reason: finishReason,
			},
		],
		usage: toCompletionUsage(usage),
	};
}

/**
 * A `chat.completion.chunk`. With `include_usage`, every chunk carries `usage: null` and the
 * last one (no choices) the usage, as OpenAI sends them.
 */
export function chatCompletionChunk(
	identity: CompletionIdentity,
	delta: { role?: 'assistant'; content?: string },
	options: { finishReason?: string | null; includeUsage: boolean },
): object {
	const chunk: Record<string, unknown> = {
		...identity,
		object: 'chat.completion.chunk',
		choices: [{ index: 0, delta, logprobs: null, finish_reason: options.finishReason ?? null }],
	};
	if (options.includeUsage) chunk.usage = null;
	return chunk;
}

/** The usage chunk that ends a stream with `stream_options.include_usage`. */
export function usageChunk(identity: CompletionIdentity, usage: Usage): object {
	return {
		...identity,
		object: 'chat.completion.chunk',
		choices: [],
		usage: toCompletionUsage(usage),
	};
}
