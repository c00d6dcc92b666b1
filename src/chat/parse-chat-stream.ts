import { parseChatChunk } from './parse-chat-chunks';
import { SseParser } from './parse-sse';
import { StreamPartConverter } from './stream-part-converter';
import type { StreamPart } from './types';

/**
 * The whole chain for one response body: bytes → text (one streaming `TextDecoder`, so a
 * UTF-8 character cut between reads decodes whole) → SSE events ({@link SseParser}) →
 * JSON chunks ({@link parseChatChunk}; stops at `[DONE]`) → stream parts
 * ({@link StreamPartConverter}). The stages are synchronous and run per read, so a read
 * costs one await however many events it holds.
 */
export async function* parseChatStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<StreamPart> {
	const decoder = new TextDecoder('utf-8');
	const events = new SseParser();
	const converter = new StreamPartConverter();
	let done = false;

	const convert = (text: string, last: boolean): StreamPart[] => {
		const parts: StreamPart[] = [];
		const completed = text === '' ? [] : events.push(text);
		if (last) completed.push(...events.end());
		for (const event of completed) {
			const result = parseChatChunk(event.data);
			if (result === 'done') {
				done = true;
				break;
			}
			for (const part of converter.push(result)) parts.push(part);
		}
		return parts;
	};

	for await (const bytes of body) {
		const parts = convert(decoder.decode(bytes, { stream: true }), false);
		for (const part of parts) yield part;
		if (done) break;
	}
	if (!done) yield* convert(decoder.decode(), true);
	yield* converter.finish();
}
