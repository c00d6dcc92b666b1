import { InvalidChunkError } from '../errors/invalid-chunk-error';
import type { ChatCompletionChunk } from './chat-chunk';

/** A parsed chunk, or the error for a `data:` payload that was not a JSON object. */
export type ChunkResult = { type: 'chunk'; chunk: ChatCompletionChunk } | { type: 'error'; error: InvalidChunkError };

/**
 * Parses one SSE `data` payload; `'done'` for OpenRouter's and OpenAI's `[DONE]` marker.
 */
export function parseChatChunk(data: string): ChunkResult | 'done' {
	if (data === '[DONE]') return 'done';
	let value: unknown;
	try {
		value = JSON.parse(data);
	} catch (error) {
		return { type: 'error', error: new InvalidChunkError(data, error instanceof Error ? error.message : String(error)) };
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { type: 'error', error: new InvalidChunkError(data, 'not an object') };
	}
	return { type: 'chunk', chunk: value as ChatCompletionChunk };
}
