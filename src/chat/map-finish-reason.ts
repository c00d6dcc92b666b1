import type { FinishReason } from './types';

/**
 * Every raw finish reason a server or provider is known to send, one row each: the Chat
 * Completions values (OpenRouter normalizes to these), and the native values of the families
 * behind them — what an OpenAI-compatible proxy passes through, and what LangChain's chat
 * models report in `response_metadata`. A new provider's value is a row here.
 */
const finishReasons: Readonly<Record<string, FinishReason>> = {
	// Chat Completions (OpenAI, OpenRouter, vLLM, Ollama's `done_reason` …)
	stop: 'stop',
	length: 'length',
	tool_calls: 'tool-calls',
	function_call: 'tool-calls',
	content_filter: 'content-filter',
	error: 'error',
	// Anthropic Messages `stop_reason`
	end_turn: 'stop',
	stop_sequence: 'stop',
	max_tokens: 'length',
	tool_use: 'tool-calls',
	refusal: 'content-filter',
	// Gemini `finishReason`
	STOP: 'stop',
	MAX_TOKENS: 'length',
	SAFETY: 'content-filter',
};

/** A raw finish reason (wire `finish_reason`, or a LangChain model's) → {@link FinishReason}. Unknown values are `other`. */
export function mapFinishReason(raw: string): FinishReason {
	return Object.hasOwn(finishReasons, raw) ? finishReasons[raw] : 'other';
}
