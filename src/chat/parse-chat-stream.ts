import { parseChatChunk } from './parse-chat-chunks';
import { SseParser } from './parse-sse';
import type { Redactor } from './redactor';
import { StreamPartConverter } from './stream-part-converter';
import type { StreamPart } from './types';

/**
 * The whole chain for one response body, synchronous and incremental: bytes → text (one
 * streaming `TextDecoder`, so a UTF-8 character cut between reads decodes whole) → SSE
 * events ({@link SseParser}) → JSON chunks ({@link parseChatChunk}; stops at `[DONE]`) →
 * stream parts ({@link StreamPartConverter}). Feed each read with `push`, then call `end`
 * once (also after `[DONE]`: it yields the assembled tool calls and `finish`).
 */
export class ChatStreamParser {
	private readonly decoder = new TextDecoder('utf-8');
	private readonly events = new SseParser();
	private readonly converter: StreamPartConverter;
	private sawDone = false;
	private ended = false;

	/** @param redactor replaces secrets in the errors of bad chunks and mid-stream provider errors */
	constructor(private readonly redactor?: Redactor) {
		this.converter = new StreamPartConverter(redactor);
	}

	/** Whether `[DONE]` arrived: nothing after it is parsed, and the caller may stop reading. */
	get done(): boolean {
		return this.sawDone;
	}

	/** Parses one read of the body; returns the parts it completed (often none or one). */
	push(bytes: Uint8Array): StreamPart[] {
		if (this.sawDone || this.ended) return [];
		return this.convert(this.events.push(this.decoder.decode(bytes, { stream: true })), []);
	}

	/** The body ended (or `[DONE]` arrived): parts of a last unterminated event, then the tool calls and `finish` (or an error). */
	end(): StreamPart[] {
		if (this.ended) return [];
		this.ended = true;
		const parts: StreamPart[] = [];
		if (!this.sawDone) {
			const rest = this.decoder.decode();
			const completed = rest === '' ? [] : this.events.push(rest);
			for (const event of this.events.end()) completed.push(event);
			this.convert(completed, parts);
		}
		for (const part of this.converter.finish()) parts.push(part);
		return parts;
	}

	private convert(events: ReadonlyArray<{ data: string }>, parts: StreamPart[]): StreamPart[] {
		for (const event of events) {
			const result = parseChatChunk(event.data, this.redactor);
			if (result === 'done') {
				this.sawDone = true;
				break;
			}
			for (const part of this.converter.push(result)) parts.push(part);
		}
		return parts;
	}
}

/**
 * {@link ChatStreamParser} over an async body: yields every part as its read completes it.
 */
export async function* parseChatStream(
	body: AsyncIterable<Uint8Array>,
): AsyncGenerator<StreamPart> {
	const parser = new ChatStreamParser();
	for await (const bytes of body) {
		yield* parser.push(bytes);
		if (parser.done) break;
	}
	yield* parser.end();
}
