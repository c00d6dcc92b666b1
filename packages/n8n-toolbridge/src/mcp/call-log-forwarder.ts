import type { LoggingLevel, ServerContext } from '@modelcontextprotocol/server';
import type { NodeLogLine } from 'n8n-nodes-toolbridge';

/** MCP's log levels, least severe first (RFC 5424 order). */
const LEVELS: readonly LoggingLevel[] = [
	'debug',
	'info',
	'notice',
	'warning',
	'error',
	'critical',
	'alert',
	'emergency',
];

/** What a 2025 client that never sent `logging/setLevel` gets: info and above. */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'info';

/** At most this many log notifications per call; then one saying how many were left out. */
export const MAX_LOG_LINES_PER_CALL = 200;

/** Longer log lines are cut here (with a note saying so). */
export const MAX_LOG_LINE_LENGTH = 4000;

/** Options of {@link callLogForwarder}. */
export interface CallLogForwarderOptions {
	/** The `tools/call` request's context (where the notifications go). */
	context: ServerContext;
	/** The protocol generation of the request. */
	era: 'legacy' | 'modern';
	/** The level a 2025 client set with `logging/setLevel` on this connection, if any. */
	level: LoggingLevel | undefined;
	/** Removes the session's secrets from a line before it leaves. */
	redact: (text: string) => string;
}

/** A call's log forwarder: `forward` per line, `finish` once the call ended. */
export interface CallLogForwarder {
	forward(line: NodeLogLine): void;
	finish(): void;
}

/**
 * Sends the log lines a tool call's nodes write to the client that called it, as
 * `notifications/message` (level, `logger` = the node, `data` = the line, redacted): to a
 * 2025 client at or above the level it set (`logging/setLevel`, else info); to a 2026 client
 * only at or above the level its request carries (`_meta` log level: none, no lines). At most
 * {@link MAX_LOG_LINES_PER_CALL} lines of {@link MAX_LOG_LINE_LENGTH} characters per call.
 * A client gone is not an error: the call ends through its own signal.
 */
export function callLogForwarder(options: CallLogForwarderOptions): CallLogForwarder {
	const { context, era, redact } = options;
	const threshold = LEVELS.indexOf(options.level ?? DEFAULT_LOG_LEVEL);
	let sent = 0;
	let leftOut = 0;
	const send = (level: LoggingLevel, data: string, logger?: string): void => {
		const delivery =
			era === 'modern'
				? // The SDK compares with the level the request's _meta carries.
					context.mcpReq.log(level, data, logger)
				: LEVELS.indexOf(level) < threshold
					? Promise.resolve()
					: context.mcpReq.notify({
							method: 'notifications/message',
							params: { level, data, ...(logger === undefined ? {} : { logger }) },
						});
		delivery.catch(() => undefined);
	};
	return {
		forward(line) {
			if (context.mcpReq.signal.aborted) return;
			if (sent >= MAX_LOG_LINES_PER_CALL) {
				leftOut += 1;
				return;
			}
			sent += 1;
			// Redacted before it is cut, so no part of a secret is left at the cut.
			const text = redact(line.message);
			send(
				line.level,
				text.length > MAX_LOG_LINE_LENGTH
					? `${text.slice(0, MAX_LOG_LINE_LENGTH)} … (${text.length - MAX_LOG_LINE_LENGTH} more characters)`
					: text,
				line.node,
			);
		},
		finish() {
			if (leftOut > 0 && !context.mcpReq.signal.aborted)
				send('warning', `${leftOut} more log lines of this call were not sent`);
		},
	};
}
