import { IncompleteStreamError } from '../errors/incomplete-stream-error';
import { MidStreamError } from '../errors/mid-stream-error';
import type { ChatCompletionChunk } from './chat-chunk';
import { reasoningTextIn } from './chat-server';
import { mapFinishReason } from './map-finish-reason';
import { mapUsage } from './map-usage';
import type { ChunkResult } from './parse-chat-chunks';
import { reasoningTextOf } from './reasoning-details-accumulator';
import type { Redactor } from './redactor';
import { ToolCallAccumulator } from './tool-call-accumulator';
import type { StreamPart, Usage } from './types';

/**
 * Chunks → stream parts, for one assistant turn (choice 0).
 *
 * - `text-delta` for `delta.content`.
 * - `reasoning-details` with the raw `reasoning_details[]` deltas, and `reasoning-delta`
 *   with their text. Once a stream has sent `reasoning_details`, `delta.reasoning` is
 *   ignored: OpenRouter sends the same text in both and it must not count twice. Without
 *   them, `reasoning-delta` carries the delta's reasoning text (`reasoningTextIn`:
 *   `reasoning`, else `reasoning_content`).
 * - `tool-call-delta` per tool-call delta (`index` is the call's position in the turn),
 *   then one `tool-call` per assembled call when the stream ends.
 * - `finish` last, with usage (from the last chunk, even one with `choices: []`) and model.
 * - `error` for a bad chunk, a mid-stream `error` chunk or `finish_reason: "error"`, or a
 *   stream that ended without any `finish_reason`. After a provider error nothing follows.
 */
export class StreamPartConverter {
	private readonly toolCalls = new ToolCallAccumulator();
	private sawReasoningDetails = false;
	private rawFinishReason: string | undefined;
	private usage: Usage | undefined;
	private model: string | undefined;
	private failed = false;
	private chunkCount = 0;
	private textLength = 0;

	/** @param redactor replaces secrets in a provider's mid-stream error message (it may echo the key) */
	constructor(private readonly redactor?: Redactor) {}

	/** Converts one chunk result into the parts it yields (often one, sometimes none). */
	push(result: ChunkResult): StreamPart[] {
		if (this.failed) return [];
		if (result.type === 'error') return [{ type: 'error', error: result.error }];
		return this.pushChunk(result.chunk);
	}

	/** Parts due at the end of the stream: assembled tool calls and `finish`, or an error. */
	finish(): StreamPart[] {
		if (this.failed) return [];
		if (this.rawFinishReason === undefined) {
			this.failed = true;
			const summary =
				this.chunkCount === 0
					? 'no data chunks at all; check that the base URL points at an OpenAI-compatible API'
					: `${this.chunkCount} chunks, ${this.textLength} characters of text, ${this.toolCalls.size} tool calls`;
			return [{ type: 'error', error: new IncompleteStreamError(summary) }];
		}
		const parts: StreamPart[] = this.toolCalls
			.finish()
			.map((toolCall) => ({ type: 'tool-call', toolCall }));
		const finish: StreamPart = {
			type: 'finish',
			finishReason: mapFinishReason(this.rawFinishReason),
			rawFinishReason: this.rawFinishReason,
		};
		if (this.usage) finish.usage = this.usage;
		if (this.model) finish.model = this.model;
		parts.push(finish);
		return parts;
	}

	private pushChunk(chunk: ChatCompletionChunk): StreamPart[] {
		this.chunkCount++;
		if (typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
		if (chunk.usage && typeof chunk.usage === 'object') this.usage = mapUsage(chunk.usage);
		const choice = Array.isArray(chunk.choices)
			? (chunk.choices.find((candidate) => (candidate?.index ?? 0) === 0) ?? chunk.choices[0])
			: undefined;

		if (chunk.error && typeof chunk.error === 'object') {
			this.failed = true;
			const { message, code } = chunk.error;
			// Only a string or number is a code: an object one (`{"toString":0}`) cannot go into a message.
			const providerCode = typeof code === 'string' || typeof code === 'number' ? code : undefined;
			const text = typeof message === 'string' ? message : describeErrorObject(chunk.error);
			const redactedCode =
				typeof providerCode === 'string' && this.redactor
					? this.redactor.text(providerCode)
					: providerCode;
			return [
				{
					type: 'error',
					error: new MidStreamError(this.redactor ? this.redactor.text(text) : text, redactedCode),
				},
			];
		}

		const parts: StreamPart[] = [];
		const delta = choice?.delta;
		if (delta && typeof delta === 'object') {
			const details = delta.reasoning_details;
			if (Array.isArray(details) && details.length > 0) {
				this.sawReasoningDetails = true;
				parts.push({ type: 'reasoning-details', details });
				let text = '';
				for (const detail of details)
					if (detail && typeof detail === 'object') text += reasoningTextOf(detail);
				if (text !== '') parts.push({ type: 'reasoning-delta', text });
			} else if (!this.sawReasoningDetails) {
				const text = reasoningTextIn(delta);
				if (text !== '') parts.push({ type: 'reasoning-delta', text });
			}
			if (typeof delta.content === 'string' && delta.content !== '') {
				this.textLength += delta.content.length;
				parts.push({ type: 'text-delta', text: delta.content });
			}
			if (Array.isArray(delta.tool_calls)) {
				for (const toolCallDelta of delta.tool_calls) {
					if (!toolCallDelta || typeof toolCallDelta !== 'object') continue;
					const added = this.toolCalls.add(toolCallDelta);
					const part: StreamPart = { type: 'tool-call-delta', index: added.position };
					if (added.id !== undefined) part.toolCallId = added.id;
					if (added.name !== undefined) part.name = added.name;
					if (added.argumentsDelta !== undefined) part.argumentsDelta = added.argumentsDelta;
					parts.push(part);
				}
			}
		}
		const finishReason = choice?.finish_reason;
		if (typeof finishReason === 'string' && finishReason !== '') {
			if (finishReason === 'error') {
				this.failed = true;
				parts.push({
					type: 'error',
					error: new MidStreamError('the stream finished with finish_reason "error"'),
				});
				return parts;
			}
			this.rawFinishReason = finishReason;
		}
		return parts;
	}
}

/** A provider error object without a message, as JSON; one nested too deep for `JSON.stringify` is named instead. */
function describeErrorObject(error: object): string {
	try {
		return JSON.stringify(error);
	} catch {
		return 'an error object nested too deeply to show';
	}
}
