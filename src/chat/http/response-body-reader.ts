import type { AttemptControl } from './attempt-control';
import { chatWatchdog, type Watched } from './watchdog';

/** How long the rest of a finished stream (after `[DONE]`) may take to arrive before it is cancelled. */
const bodyDrainGraceMs = 5_000;

/** What one read of a response body gives. */
export type BodyRead = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/**
 * Reads a response body for the stream parser, telling the attempt's control of every read.
 * The parser stops at `[DONE]`, often one read before the body's end: `release` then leaves
 * the end to arrive by itself, so the keep-alive connection goes back to the pool
 * (cancelling would abort the fetch: a DOMException, the connection possibly closed, and a
 * new one, TLS included, for the next turn); `cancel` gives the body up (an error, a
 * consumer that stopped early).
 */
export class ResponseBodyReader {
	private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
	private settled = false;

	constructor(
		body: ReadableStream<Uint8Array>,
		private readonly control: Pick<AttemptControl, 'activity'>,
	) {
		this.reader = body.getReader();
	}

	/** The next read (plain, no wrapper: a read costs one await); hand its result to {@link received}. */
	read(): Promise<BodyRead> {
		return this.reader.read();
	}

	/** The bytes of a read, `undefined` at the body's end. */
	received(result: BodyRead): Uint8Array | undefined {
		this.control.activity();
		if (!result.done) return result.value;
		this.settled = true;
		return undefined;
	}

	/** The rest of the body, whole. */
	async readAll(): Promise<Buffer> {
		const pieces: Uint8Array[] = [];
		for (
			let bytes = this.received(await this.read());
			bytes !== undefined;
			bytes = this.received(await this.read())
		)
			pieces.push(bytes);
		return Buffer.concat(pieces);
	}

	/**
	 * The stream is complete. The rest of the body, normally just its end and already on its
	 * way, is read in the background, not awaited: awaiting it cost ~0.05–0.1× of a bare
	 * round trip per turn in the loop bench (the bare client pays it). It must be read all
	 * the same: nobody pulls a body left alone, so it never learns its end has come and stays
	 * open, with fetch's buffers (~60 KB), until the grace runs out — 5 s of every response
	 * kept in memory under load. A body still open {@link bodyDrainGraceMs} later (a server
	 * that goes on after `[DONE]`) is cancelled.
	 */
	release(): void {
		if (this.settled) return;
		this.settled = true;
		const reader = this.reader;
		const leftover: Watched = {
			check: () => {
				reader.cancel().catch(() => undefined);
				return undefined;
			},
		};
		chatWatchdog.watch(leftover, Date.now() + bodyDrainGraceMs);
		const closed = () => chatWatchdog.unwatch(leftover);
		const drain = (): void => {
			reader.read().then((result) => (result.done ? closed() : drain()), closed);
		};
		drain();
	}

	/** Nothing more is wanted from the body. */
	cancel(): void {
		if (this.settled) return;
		this.settled = true;
		this.reader.cancel().catch(() => undefined);
	}
}
