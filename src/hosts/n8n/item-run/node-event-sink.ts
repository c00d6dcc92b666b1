import type { IExecuteFunctions } from 'n8n-workflow';
import type { AgentEvent } from '../../../agent/agent-event';
import type { Redactor } from '../../../chat/redactor';
import { StreamingRedactor } from '../../../chat/streaming-redactor';

/**
 * Where one item's run reports to n8n, for every driver and mode: streamed text goes out
 * through `sendChunk` when the execution streams, redacted with a hold-back (a key split across
 * deltas is caught; each model call's last characters go out when it ends); `[DEBUG]` lines
 * (already redacted) are kept for the output item, written to n8n's log and streamed as lines
 * of their own.
 */
export class NodeEventSink {
	private readonly streaming: boolean;
	private readonly text: StreamingRedactor | undefined;

	/**
	 * @param debugLog where the item's debug lines are kept (the engine driver persists it between re-entries)
	 * @param redactor the run's secrets, for the streamed text
	 */
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly itemIndex: number,
		readonly debugLog: string[] = [],
		redactor?: Redactor,
	) {
		this.streaming = typeof context.isStreaming === 'function' && context.isStreaming();
		this.text = redactor && new StreamingRedactor(redactor);
	}

	/** Opens the item's stream (streaming executions only). */
	begin(): void {
		if (this.streaming) this.context.sendChunk('begin', this.itemIndex);
	}

	/** Closes the item's stream (after what the redactor still holds). */
	end(): void {
		this.flushText();
		if (this.streaming) this.context.sendChunk('end', this.itemIndex);
	}

	/** An agent event listener: text deltas stream, debug lines are recorded. */
	readonly onEvent = (event: AgentEvent): void => {
		if (event.type === 'text-delta') {
			if (this.streaming) this.sendText(this.text ? this.text.push(event.text) : event.text);
		} else if (event.type === 'debug') this.debug(event.line);
		else if (event.type === 'model-call-end' || event.type === 'step-start') this.flushText();
	};

	private sendText(text: string): void {
		if (text !== '') this.context.sendChunk('item', this.itemIndex, text);
	}

	private flushText(): void {
		const held = this.text?.flush() ?? '';
		if (this.streaming) this.sendText(held);
	}

	/** Records one redacted `[DEBUG]` line. */
	debug(line: string): void {
		this.debugLog.push(line);
		this.context.logger?.debug(line);
		if (this.streaming) this.context.sendChunk('item', this.itemIndex, `${line}\n`);
	}
}
