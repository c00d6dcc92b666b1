import type { ChatMessage, ContentPart } from '../chat/types';

/** Tool results at least this long (characters, ~1000 tokens: Anthropic's smallest cacheable prefix) get a cache breakpoint. */
const longToolResultChars = 4000;
/** Breakpoints on tool results; with the system message's, 3 of Anthropic's 4. */
const toolResultBreakpoints = 2;

/**
 * The messages with OpenRouter `cache_control` breakpoints on the system message and on the
 * latest long tool results, so each call reads the prefix the previous one wrote. The given
 * messages are not changed.
 */
export function withCacheBreakpoints(messages: ChatMessage[]): ChatMessage[] {
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
