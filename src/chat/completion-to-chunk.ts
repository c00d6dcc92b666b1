import type { ChatCompletionChunk, WireToolCallDelta } from './chat-chunk';

interface WireCompletion {
	id?: string;
	model?: string;
	choices?: Array<{
		index?: number;
		message?: {
			content?: string | null;
			reasoning?: string | null;
			reasoning_details?: unknown;
			tool_calls?: Array<Omit<WireToolCallDelta, 'index'>> | null;
		};
		finish_reason?: string | null;
	}>;
	usage?: ChatCompletionChunk['usage'];
	error?: ChatCompletionChunk['error'];
}

/**
 * A non-streamed `chat.completion` (some OpenAI-compatible servers ignore `stream: true`
 * and answer with one JSON body) as the single chunk a stream would have carried, so it
 * takes the same assembly path.
 */
export function completionToChunk(completion: WireCompletion): ChatCompletionChunk {
	const chunk: ChatCompletionChunk = {
		id: completion.id,
		model: completion.model,
		usage: completion.usage,
		error: completion.error,
	};
	chunk.choices = (completion.choices ?? []).map((choice) => {
		const message = choice.message ?? {};
		return {
			index: choice.index ?? 0,
			delta: {
				content: message.content,
				reasoning: message.reasoning,
				reasoning_details: Array.isArray(message.reasoning_details)
					? message.reasoning_details
					: undefined,
				tool_calls: message.tool_calls?.map((call, index) => ({ ...call, index })),
			},
			finish_reason: choice.finish_reason,
		};
	});
	return chunk;
}
