import { Redactor } from '../chat/redactor';
import type { ToolObservation } from '../tools/agent-tool';
import { DEFAULT_MAX_OUTPUT_LENGTH } from '../tools/format-tool-output';
import { truncateText } from '../tools/truncate-text';
import {
	boundAttachments,
	type AttachmentLimits,
	type ToolAttachment,
} from '../tools/tool-attachment';
import type { ToolCallResult } from './apply-tool-results';

/** What a driver's {@link OutputBoundary} is built from. */
export interface OutputBoundaryOptions extends AttachmentLimits {
	/** The run's redactor, when the host built one (it then redacts the host's own output too). Default: one from `secrets`. */
	redactor?: Redactor;
	/** Values replaced by `[REDACTED]` in everything the run reports: API keys, credential and header values. */
	secrets?: readonly string[];
	/**
	 * Cap on every text the model reads from a tool — its output, its error, a nested
	 * agent's answer — in characters; longer text is cut with an `[Output truncated …]`
	 * note. Default {@link DEFAULT_MAX_OUTPUT_LENGTH}.
	 */
	maxOutputLength?: number;
}

/**
 * Where a run's data leaves the agent core, for every driver: a tool's observation on its
 * way into the state (so into `steps`, `state.messages`, events, the debug log and the
 * next request to the model) has the run's secrets redacted, in its text and its `data`,
 * and its text capped; a failure (a model call's error) is redacted before it is recorded
 * or thrown; debug lines are redacted before they are emitted.
 */
export class OutputBoundary {
	readonly redactor: Redactor;
	readonly maxOutputLength: number;
	readonly attachmentLimits: AttachmentLimits;

	constructor(options: OutputBoundaryOptions = {}) {
		this.redactor = options.redactor ?? new Redactor(options.secrets);
		this.maxOutputLength = options.maxOutputLength ?? DEFAULT_MAX_OUTPUT_LENGTH;
		this.attachmentLimits = {
			maxAttachments: options.maxAttachments,
			maxAttachmentBytes: options.maxAttachmentBytes,
		};
	}

	/**
	 * The observation as the state and the model may have it: secrets redacted, then the text
	 * capped — the one cap on its way. Its `value` (the JSON the text was made from) is
	 * redacted with it and kept only while the text is whole, so it never says more than the text.
	 * Its attachments (images, sounds) are kept within the count and size limits, their names
	 * redacted; each one left out gets a note after the text.
	 */
	observation(observation: ToolObservation): ToolObservation {
		const redacted = this.redactor.text(observation.content);
		let content = truncateText(redacted, this.maxOutputLength);
		let attachments: ToolAttachment[] | undefined;
		if (observation.attachments && observation.attachments.length > 0) {
			const bounded = boundAttachments(observation.attachments, this.attachmentLimits);
			if (bounded.notes.length > 0)
				content = `${content}\n${this.redactor.text(bounded.notes.join('\n'))}`;
			if (bounded.attachments.length > 0)
				attachments = bounded.attachments.map((attachment) => ({
					...attachment,
					name: this.redactor.text(attachment.name),
				}));
		}
		const guarded: ToolObservation = { content, isError: observation.isError };
		if (attachments) guarded.attachments = attachments;
		const { data, value } = observation;
		// `value` is what `content` is the JSON text of, and the redactor matches every secret in
		// its JSON-escaped form too: text without a secret means a value without one.
		const clean = value !== undefined && redacted === observation.content;
		const safeValue = value === undefined || clean ? value : this.redactor.value(value);
		if (data !== undefined) guarded.data = data === value ? safeValue : this.redactor.value(data);
		if (value !== undefined && content === redacted) guarded.value = safeValue;
		return guarded;
	}

	/** A tool call's result with its observation through {@link observation}. */
	result(result: ToolCallResult): ToolCallResult {
		return { ...result, observation: this.observation(result.observation) };
	}

	/** An error leaving the run, redacted in place (message, stack, fields, causes). */
	error<T>(error: T): T {
		return this.redactor.error(error);
	}

	/** A `[DEBUG]` line. */
	line(text: string): string {
		return this.redactor.text(text);
	}
}
