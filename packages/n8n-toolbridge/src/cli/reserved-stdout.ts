import { Writable } from 'node:stream';

/** stdout kept for what a command promises; see {@link reserveStdout}. */
export interface ReservedStdout {
	/** Writes to the real stdout. */
	write(text: string, done?: (error?: Error | null) => void): void;
	/** The real stdout as a stream (MCP over stdio writes its JSON-RPC here). */
	stream: Writable;
}

let reserved: ReservedStdout | undefined;

/**
 * Keeps stdout for what the command promises — the JSON of `--json`, a `call`'s result, MCP's
 * JSON-RPC over stdio — and sends everything else written to `process.stdout` (a library's
 * `console.log`, a logger's console transport, a node's own output) to stderr. Only what is
 * written through the returned {@link ReservedStdout} reaches stdout. Once per process: later
 * calls return the same one.
 */
export function reserveStdout(): ReservedStdout {
	if (reserved) return reserved;
	const stdout = process.stdout;
	const writeStdout = stdout.write.bind(stdout) as (
		chunk: string | Uint8Array,
		done?: (error?: Error | null) => void,
	) => boolean;
	const toStderr = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
		(process.stderr.write as (...args: unknown[]) => boolean)(
			chunk,
			...rest,
		)) as typeof stdout.write;
	stdout.write = toStderr;
	// A reader that went away (EPIPE) has nothing left to be told: its errors end here.
	stdout.on('error', () => undefined);
	const stream = new Writable({
		write(chunk: Buffer, _encoding, done) {
			writeStdout(chunk, () => done());
		},
	});
	reserved = { write: (text, done) => void writeStdout(text, done), stream };
	return reserved;
}
