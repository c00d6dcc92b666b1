import { decodeUtf8Stream } from './decode-utf8-stream';
import { parseChatChunks } from './parse-chat-chunks';
import { parseSseEvents } from './parse-sse';
import { chunksToStreamParts } from './stream-part-converter';
import type { StreamPart } from './types';

/**
 * The whole chain for one response body: bytes → text → SSE events → JSON chunks →
 * stream parts. Accepts bytes cut anywhere, even inside a UTF-8 character.
 */
export function parseChatStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<StreamPart> {
	return chunksToStreamParts(parseChatChunks(parseSseEvents(decodeUtf8Stream(body))));
}
