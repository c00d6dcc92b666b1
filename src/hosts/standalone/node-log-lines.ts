import { AsyncLocalStorage } from 'node:async_hooks';
import { argumentChecks } from '../../errors/invalid-argument-error';

/** The severity of a node's log line, named as MCP's log levels name them. */
export type NodeLogLevel = 'debug' | 'info' | 'warning' | 'error';

/** One line a node logged while it ran (its Code's `console.log`, n8n's logger). */
export interface NodeLogLine {
	level: NodeLogLevel;
	/** The line as the node wrote it (not redacted: the listener redacts). */
	message: string;
	/** The node that logged it, when known. */
	node?: string;
}

/** Receives the log lines of the run it listens to. */
export type NodeLogListener = (line: NodeLogLine) => void;

const listeners = new AsyncLocalStorage<NodeLogListener>();

/**
 * Runs `work` (one tool call) with `listener` receiving the log lines its nodes write
 * ({@link emitNodeLogLine}): lines of concurrent calls reach each its own listener, as the
 * listener travels with the call's async context.
 *
 * @throws InvalidArgumentError (INVALID_ARGUMENT) when `listener` or `work` is not a function.
 */
export function withNodeLogListener<T>(
	listener: NodeLogListener,
	work: () => Promise<T>,
): Promise<T> {
	const check = argumentChecks('withNodeLogListener');
	if (typeof listener !== 'function') check.fail('listener', 'a function', listener);
	if (typeof work !== 'function') check.fail('work', 'a function', work);
	return listeners.run(listener, work);
}

/**
 * Hands a node's log line to the listener of the call running now.
 * @returns whether a listener took it (else the caller may print it elsewhere, or drop it).
 * @throws InvalidArgumentError (INVALID_ARGUMENT) when `line` is not an object with a string `message`.
 */
export function emitNodeLogLine(line: NodeLogLine): boolean {
	const check = argumentChecks('emitNodeLogLine');
	check.string(check.object(line, 'line').message, 'line.message');
	const listener = listeners.getStore();
	if (!listener) return false;
	try {
		listener(line);
	} catch {
		// A listener's failure (a client gone) must not fail the node that logged.
	}
	return true;
}

/**
 * n8n's `sendDataToUI` for the standalone host: what a node sends the editor's console in
 * manual mode (`console.log` in a Code node or Code Tool, through n8n's task runner) becomes
 * a log line of the running call. Everything else n8n sends its editor is dropped, as before.
 */
export function sendNodeConsoleToListener(type: string, data: unknown): void {
	if (type !== 'sendConsoleMessage') return;
	const { source, messages } = (data ?? {}) as { source?: unknown; messages?: unknown };
	const parts = Array.isArray(messages) ? messages : [messages];
	const node = typeof source === 'string' ? /^\[Node: "(.*)"\]$/.exec(source)?.[1] : undefined;
	emitNodeLogLine({
		level: 'info',
		message: parts
			.map((part) => (typeof part === 'string' ? unquoted(part) : safeJson(part)))
			.join(' '),
		...(node === undefined ? {} : { node }),
	});
}

/**
 * n8n's task runner hands a string `console.log` argument over in single quotes (`'text'`,
 * its `logNodeOutput` formatting); the line shows it as the node wrote it.
 */
function unquoted(text: string): string {
	return text.length >= 2 && text.startsWith("'") && text.endsWith("'") ? text.slice(1, -1) : text;
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}
