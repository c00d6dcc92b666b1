import type { ReasoningDetail } from './types';

/** One streamed tool-call delta as sent on the wire. Every field may be missing. */
export interface WireToolCallDelta {
	index?: number;
	id?: string | null;
	type?: string;
	function?: { name?: string | null; arguments?: string | null };
}

/** The usage object of the last chunk (OpenAI fields plus OpenRouter's `cost`). */
export interface WireUsage {
	prompt_tokens?: number;
	completion_tokens?: number;
	total_tokens?: number;
	cost?: number | null;
	prompt_tokens_details?: {
		cached_tokens?: number;
		cache_write_tokens?: number;
		cache_creation_tokens?: number;
	} | null;
	completion_tokens_details?: { reasoning_tokens?: number } | null;
	/** Anthropic-style names some gateways pass through. */
	cache_creation_input_tokens?: number;
	cache_read_input_tokens?: number;
	[key: string]: unknown;
}

/** A Chat Completions stream chunk (`chat.completion.chunk`). Unknown fields are tolerated. */
export interface ChatCompletionChunk {
	id?: string;
	object?: string;
	created?: number;
	model?: string;
	provider?: string;
	choices?: Array<{
		index?: number;
		delta?: {
			role?: string;
			content?: string | null;
			reasoning?: string | null;
			reasoning_details?: ReasoningDetail[] | null;
			tool_calls?: WireToolCallDelta[] | null;
			[key: string]: unknown;
		} | null;
		finish_reason?: string | null;
		native_finish_reason?: string | null;
		[key: string]: unknown;
	}>;
	usage?: WireUsage | null;
	/** OpenRouter's mid-stream error. */
	error?: { code?: string | number; message?: string; metadata?: unknown } | null;
	[key: string]: unknown;
}
