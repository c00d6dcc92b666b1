import type { GenerateResult, MessageContent, StreamChunk, TokenUsage } from '@n8n/ai-node-sdk';
import type { AssistantTurn, StreamPart, Usage } from '../../../chat/types';
import { reasoningDetailsKey } from './sdk-messages';

/**
 * An assembled turn as the SDK's result: one assistant message with its reasoning, text and
 * tool calls (ids kept; a call whose arguments were broken JSON is an `invalid-tool-call`),
 * the usage with cached and reasoning tokens, the finish reason, and the turn's
 * `reasoning_details` in `providerMetadata` (see {@link reasoningDetailsKey}).
 */
export function toGenerateResult(turn: AssistantTurn): GenerateResult {
	const content: MessageContent[] = [];
	if (turn.reasoning !== '') content.push({ type: 'reasoning', text: turn.reasoning });
	if (turn.text !== '' || turn.toolCalls.length === 0)
		content.push({ type: 'text', text: turn.text });
	for (const call of turn.toolCalls) {
		if (call.arguments !== undefined && call.error === undefined)
			content.push({
				type: 'tool-call',
				toolCallId: call.toolCallId,
				toolName: call.name,
				input: JSON.stringify(call.arguments),
			});
		else
			content.push({
				type: 'invalid-tool-call',
				toolCallId: call.toolCallId,
				name: call.name,
				args: call.argumentsText,
				error: call.error ?? 'Broken arguments.',
			});
	}
	const providerMetadata = turnMetadata(turn);
	if (providerMetadata[reasoningDetailsKey])
		content[0] = {
			...content[0],
			providerMetadata: { [reasoningDetailsKey]: turn.reasoningDetails },
		};
	const result: GenerateResult = {
		message: { role: 'assistant', content },
		finishReason: turn.finishReason,
		providerMetadata,
	};
	if (turn.usage) result.usage = toTokenUsage(turn.usage);
	return result;
}

/**
 * The stream chunk for one part, or undefined for parts the SDK's stream does not carry
 * one by one. A tool call is one `tool-call-delta` with its id, name and whole arguments
 * once it is assembled: n8n's LangChain adapter gives every delta index 0, so only the id
 * keeps parallel calls apart, and a delta without one would be merged into the first call.
 */
export function toStreamChunk(part: StreamPart): StreamChunk | undefined {
	switch (part.type) {
		case 'text-delta':
			return { type: 'text-delta', delta: part.text };
		case 'reasoning-delta':
			return { type: 'reasoning-delta', delta: part.text };
		case 'tool-call':
			return {
				type: 'tool-call-delta',
				id: part.toolCall.toolCallId,
				name: part.toolCall.name,
				argumentsDelta:
					part.toolCall.arguments !== undefined
						? JSON.stringify(part.toolCall.arguments)
						: part.toolCall.argumentsText,
			};
		default:
			return undefined;
	}
}

/**
 * The chunks that end a streamed turn: its `reasoning_details` as a `provider` content block
 * when it calls tools (they must go back with the tool results, and n8n's adapter keeps no
 * metadata of a stream; a plain answer does not carry them into the conversation), then `finish`.
 */
export function toClosingChunks(turn: AssistantTurn): StreamChunk[] {
	const chunks: StreamChunk[] = [];
	if (turn.reasoningDetails.length > 0 && turn.toolCalls.length > 0)
		chunks.push({
			type: 'content',
			content: { type: 'provider', value: { [reasoningDetailsKey]: turn.reasoningDetails } },
		});
	chunks.push(toFinishChunk(turn));
	return chunks;
}

/** The `finish` chunk of a streamed turn, with its usage and metadata (the `reasoning_details` to send back). */
export function toFinishChunk(turn: AssistantTurn): StreamChunk {
	const chunk: StreamChunk = {
		type: 'finish',
		finishReason: turn.finishReason,
		providerMetadata: turnMetadata(turn),
	};
	if (turn.usage) chunk.usage = toTokenUsage(turn.usage);
	return chunk;
}

/** Our usage as the SDK's: cached prompt tokens as `cacheRead`, reasoning tokens, cost and cache writes as metadata. */
export function toTokenUsage(usage: Usage): TokenUsage {
	const tokenUsage: TokenUsage = {
		promptTokens: usage.promptTokens,
		completionTokens: usage.completionTokens,
		totalTokens: usage.totalTokens,
	};
	if (usage.cachedTokens !== undefined)
		tokenUsage.inputTokenDetails = { cacheRead: usage.cachedTokens };
	if (usage.reasoningTokens !== undefined)
		tokenUsage.outputTokenDetails = { reasoning: usage.reasoningTokens };
	const additional: Record<string, unknown> = {};
	if (usage.cost !== undefined) additional.cost = usage.cost;
	if (usage.cacheWriteTokens !== undefined) additional.cacheWriteTokens = usage.cacheWriteTokens;
	if (Object.keys(additional).length > 0) tokenUsage.additionalMetadata = additional;
	return tokenUsage;
}

function turnMetadata(turn: AssistantTurn): Record<string, unknown> {
	const metadata: Record<string, unknown> = { finish_reason: turn.rawFinishReason };
	if (turn.model !== undefined) metadata.model_name = turn.model;
	if (turn.reasoningDetails.length > 0) metadata[reasoningDetailsKey] = turn.reasoningDetails;
	return metadata;
}
