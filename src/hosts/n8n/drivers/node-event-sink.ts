import type { IExecuteFunctions } from 'n8n-workflow';
import type { AgentEvent } from '../../../agent/agent-event';

/**
 * Where one item's run reports to n8n, for every driver and mode: streamed text goes out
 * through `sendChunk` when the execution streams; `[DEBUG]` lines (already redacted) are
 * kept for the output item, written to n8n's log and streamed as lines of their own.
 */
export class NodeEventSink {
	private readonly streaming: boolean;

	/** @param debugLog where the item's debug lines are kept (the engine driver persists it between re-entries) */
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly itemIndex: number,
		readonly debugLog: string[] = [],
	) {
		this.streaming = typeof context.isStreaming === 'function' && context.isStreaming();
	}

	/** Opens the item's stream (streaming executions only). */
	begin(): void {
		if (this.streaming) this.context.sendChunk('begin', this.itemIndex);
	}

	/** Closes the item's stream. */
	end(): void {
		if (this.streaming) this.context.sendChunk('end', this.itemIndex);
	}

	/** An agent event listener: text deltas stream, debug lines are recorded. */
	readonly onEvent = (event: AgentEvent): void => {
		if (event.type === 'text-delta') {
			if (this.streaming) this.context.sendChunk('item', this.itemIndex, event.text);
		} else if (event.type === 'debug') this.debug(event.line);
	};

	/** Records one redacted `[DEBUG]` line. */
	debug(line: string): void {
		this.debugLog.push(line);
		this.context.logger?.debug(line);
		if (this.streaming) this.context.sendChunk('item', this.itemIndex, `${line}\n`);
	}
}
