import { listedTool } from './listed-tool';
import type { McpServerDescription } from './mcp-description';
import type { McpTool } from './mcp-tool';
import { openingAnswer, openingEra, toolsListAnswer } from './opening-answer';

/** The parts of the SDK's `Transport` that `serveStdio` uses (kept here so this module loads nothing). */
export interface ReplayingTransport {
	start(): Promise<void>;
	send(message: Record<string, unknown>): Promise<void>;
	close(): Promise<void>;
	onmessage?: (message: unknown) => void;
	onclose?: () => void;
	onerror?: (error: Error) => void;
}

/** stdin/stdout as the early reader uses them. */
export interface StdioStreams {
	stdin: NodeJS.ReadableStream;
	stdout: NodeJS.WritableStream;
}

/** A running early reader: what arrived so far, and the transport that hands it on to the SDK. */
export interface StdioEarlyReader {
	/**
	 * The SDK's transport for this connection (once): replays every line read so far through
	 * `deserialize` (the SDK's own, so a bad line is the same `onerror` as with its transport),
	 * then passes new lines on; drops the SDK's answer to an opening already answered here.
	 */
	transport(deserialize: (line: string) => unknown): ReplayingTransport;
	/** Resolves when the client closes stdin. */
	readonly closed: Promise<void>;
	/**
	 * Resolves when the first line has arrived (and, if it was an opening, was answered), or
	 * after `waitMs` — what the CLI waits for before loading anything heavy, since loading
	 * blocks the event loop. A client writes its opening as soon as it starts the server.
	 */
	firstLine(waitMs: number): Promise<void>;
	/**
	 * The tools are loaded and the SDK is not yet: `tools/list` requests that arrived (and
	 * arrive until the SDK takes over) are answered by hand, as the SDK would answer them, so a
	 * client's first listing does not wait for the SDK to load. Only on a connection whose
	 * opening was answered here.
	 */
	answerToolsList(tools: McpTool[]): void;
	/** Stops reading (the process can then exit). */
	stop(): void;
}

/** A line longer than this without a newline is dropped (the SDK's stdio bound is of this order). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

let started: StdioEarlyReader | undefined;

/**
 * Starts reading MCP's newline-delimited JSON-RPC on stdin at once, before the SDK and n8n's
 * nodes load (hundreds of ms to seconds): a client's opening request (`server/discover` or
 * `initialize`) is answered by hand from `description` within milliseconds, so clients with
 * a short opening timeout (the AI SDK waits 1 s) see a live server. Every line is kept for the
 * SDK, which takes over through {@link StdioEarlyReader.transport}: it sees the same
 * conversation (and pins the same protocol era) as if it had read stdin itself. Only node
 * built-ins are loaded here.
 */
export function startStdioEarlyReader(
	description: McpServerDescription,
	streams: StdioStreams = { stdin: process.stdin, stdout: process.stdout },
): StdioEarlyReader {
	const { stdin, stdout } = streams;
	const lines: string[] = [];
	const answeredIds = new Set<unknown>();
	let handOn: ((line: string) => void) | undefined;
	let onEnd: (() => void) | undefined;
	let ended = false;
	let pending = '';
	let seenFirst = false;
	let onFirst: (() => void) | undefined;
	const first = new Promise<void>((resolve) => (onFirst = resolve));
	/** The protocol generation of an opening answered here (else the SDK answers everything). */
	let era: 'legacy' | 'modern' | undefined;
	/** Answers a `tools/list` line by hand once the tools are loaded (see `answerToolsList`). */
	let answerList: ((line: string) => void) | undefined;
	const write = (message: unknown): void => {
		stdout.write(`${JSON.stringify(message)}\n`);
	};
	const onLine = (line: string): void => {
		if (line.trim() === '') return;
		if (handOn) return handOn(line);
		if (!seenFirst) {
			seenFirst = true;
			const message = parseQuietly(line);
			const answer = openingAnswer(message, description);
			if (answer) {
				write(answer);
				answeredIds.add(answer.id);
				era = openingEra(message);
			}
			onFirst?.();
		} else answerList?.(line);
		lines.push(line);
	};
	const onData = (chunk: Buffer | string): void => {
		pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
		let newline: number;
		while ((newline = pending.indexOf('\n')) >= 0) {
			const line = pending.slice(0, newline).replace(/\r$/, '');
			pending = pending.slice(newline + 1);
			onLine(line);
		}
		if (pending.length > MAX_LINE_BYTES) pending = '';
	};
	const closed = new Promise<void>((resolve) => {
		const end = (): void => {
			if (ended) return;
			ended = true;
			onEnd?.();
			resolve();
		};
		stdin.once('end', end);
		stdin.once('close', end);
	});
	stdin.on('data', onData);
	// A client that goes away mid-write must not crash the server (EPIPE).
	stdout.on('error', () => undefined);

	const reader: StdioEarlyReader = {
		closed,
		firstLine: (waitMs) =>
			Promise.race([
				first,
				closed,
				new Promise<void>((resolve) => setTimeout(resolve, waitMs).unref()),
			]),
		answerToolsList(tools) {
			if (!era || handOn) return;
			const listed = tools.map((tool) => listedTool(tool, era!));
			answerList = (line) => {
				const answer = toolsListAnswer(parseQuietly(line), era!, listed, description);
				if (!answer || answeredIds.has(answer.id)) return;
				write(answer);
				answeredIds.add(answer.id);
			};
			for (const line of lines.slice(1)) answerList(line);
		},
		stop() {
			stdin.off('data', onData);
			(stdin as NodeJS.ReadStream).pause?.();
			(stdin as NodeJS.ReadStream).destroy?.();
		},
		transport(deserialize) {
			const transport: ReplayingTransport = {
				async start() {
					const deliver = (line: string): void => {
						let message: unknown;
						try {
							message = deserialize(line);
						} catch (error) {
							transport.onerror?.(error as Error);
							return;
						}
						transport.onmessage?.(message);
					};
					handOn = deliver;
					answerList = undefined;
					for (const line of lines.splice(0)) deliver(line);
					onEnd = () => transport.onclose?.();
					if (ended) transport.onclose?.();
				},
				async send(message) {
					// The opening was answered by hand: the SDK's own answer to it is dropped.
					if (!('method' in message) && answeredIds.delete(message.id)) return;
					write(message);
				},
				async close() {
					reader.stop();
					transport.onclose?.();
				},
			};
			return transport;
		},
	};
	started = reader;
	return reader;
}

/** The reader `startStdioEarlyReader` started in this process, if any (the CLI starts it before loading commands). */
export function startedStdioEarlyReader(): StdioEarlyReader | undefined {
	return started;
}

function parseQuietly(line: string): unknown {
	try {
		return JSON.parse(line);
	} catch {
		return undefined;
	}
}
