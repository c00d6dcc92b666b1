/** One Server-Sent Event: its `data` lines joined by `\n`, plus `event` / `id` when sent. */
export interface SseEvent {
	data: string;
	event?: string;
	id?: string;
}

/**
 * Incremental SSE parser (the WHATWG event-stream format): feed text in pieces of any
 * size with `push`, call `end` at the end. Lines may end in LF, CR or CRLF (also when a
 * CRLF is split between pieces); `:` comment lines (OpenRouter's `: OPENROUTER
 * PROCESSING`) and unknown fields are skipped. Work is linear in the input: a line cut
 * into many pieces is kept as a list and joined once.
 */
export class SseParser {
	private linePieces: string[] = [];
	private dataLines: string[] = [];
	private eventName: string | undefined;
	private lastId: string | undefined;
	private skipLeadingLineFeed = false;

	/** Parses one more piece of text and returns the events it completed. */
	push(text: string): SseEvent[] {
		const events: SseEvent[] = [];
		let start = 0;
		if (this.skipLeadingLineFeed) {
			this.skipLeadingLineFeed = false;
			if (text.charCodeAt(0) === 10) start = 1;
		}
		const length = text.length;
		// Next LF and CR positions, each searched natively and only again once passed, so a
		// piece is scanned a bounded number of times whatever its line endings.
		let nextLineFeed = -2;
		let nextCarriageReturn = -2;
		while (start < length) {
			if (nextLineFeed !== -1 && nextLineFeed < start) nextLineFeed = text.indexOf('\n', start);
			if (nextCarriageReturn !== -1 && nextCarriageReturn < start)
				nextCarriageReturn = text.indexOf('\r', start);
			let end =
				nextLineFeed === -1
					? nextCarriageReturn
					: nextCarriageReturn === -1
						? nextLineFeed
						: Math.min(nextLineFeed, nextCarriageReturn);
			if (end === -1) end = length;
			if (end === length) {
				this.linePieces.push(text.slice(start));
				break;
			}
			let line = text.slice(start, end);
			if (this.linePieces.length > 0) {
				this.linePieces.push(line);
				line = this.linePieces.join('');
				this.linePieces = [];
			}
			if (text.charCodeAt(end) === 13) {
				if (end + 1 === length) this.skipLeadingLineFeed = true;
				else if (text.charCodeAt(end + 1) === 10) end++;
			}
			start = end + 1;
			const event = this.processLine(line);
			if (event) events.push(event);
		}
		return events;
	}

	/** Flushes a last line or event that the stream did not terminate. */
	end(): SseEvent[] {
		const events: SseEvent[] = [];
		if (this.linePieces.length > 0) {
			const line = this.linePieces.join('');
			this.linePieces = [];
			const event = this.processLine(line);
			if (event) events.push(event);
		}
		// Lenient: an event not followed by a blank line is still delivered.
		const last = this.dispatch();
		if (last) events.push(last);
		return events;
	}

	private processLine(line: string): SseEvent | undefined {
		if (line === '') return this.dispatch();
		if (line.charCodeAt(0) === 58 /* : */) return undefined;
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? '' : line.slice(colon + 1);
		if (value.charCodeAt(0) === 32) value = value.slice(1);
		if (field === 'data') this.dataLines.push(value);
		else if (field === 'event') this.eventName = value;
		else if (field === 'id') this.lastId = value;
		return undefined;
	}

	private dispatch(): SseEvent | undefined {
		if (this.dataLines.length === 0) {
			this.eventName = undefined;
			return undefined;
		}
		const event: SseEvent = {
			data: this.dataLines.length === 1 ? this.dataLines[0] : this.dataLines.join('\n'),
		};
		if (this.eventName !== undefined) event.event = this.eventName;
		if (this.lastId !== undefined) event.id = this.lastId;
		this.dataLines = [];
		this.eventName = undefined;
		return event;
	}
}
