import { InvalidChunkError } from '../errors/invalid-chunk-error';
import type { ChatCompletionChunk } from './chat-chunk';
import { jsonSyntaxProblem } from './json-syntax-problem';
import type { Redactor } from './redactor';

/** A parsed chunk, or the error for a `data:` payload that was not a JSON object. */
export type ChunkResult =
	{ type: 'chunk'; chunk: ChatCompletionChunk } | { type: 'error'; error: InvalidChunkError };

/**
 * Parses one SSE `data` payload; `'done'` for OpenRouter's and OpenAI's `[DONE]` marker.
 * A payload that is not a JSON object gives an error whose excerpt has `redactor`'s secrets
 * replaced (a server may echo the request's key in a broken line).
 */
export function parseChatChunk(data: string, redactor?: Redactor): ChunkResult | 'done' {
	if (data === '[DONE]') return 'done';
	let value: unknown;
	try {
		value = JSON.parse(data);
	} catch (error) {
		return {
			type: 'error',
			error: new InvalidChunkError(redactor ? redactor.text(data) : data, jsonSyntaxProblem(error)),
		};
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return {
			type: 'error',
			error: new InvalidChunkError(redactor ? redactor.text(data) : data, 'not an object'),
		};
	}
	return { type: 'chunk', chunk: value as ChatCompletionChunk };
}
