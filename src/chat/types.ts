/**
 * The OpenAI-compatible Chat Completions wire types this package speaks, plus the
 * stream parts and assembled turn the chat client produces. Everything here is plain
 * JSON so agent state that holds messages can be persisted by n8n between re-entries.
 */

import type { JsonSchema } from '../schema/json-schema';

export type { JsonSchema };

/** One `reasoning_details[]` entry (OpenRouter); kept verbatim and sent back unmodified. */
export interface ReasoningDetail {
	type: 'reasoning.text' | 'reasoning.summary' | 'reasoning.encrypted' | string;
	text?: string;
	summary?: string;
	data?: string;
	signature?: string | null;
	id?: string | null;
	format?: string;
	index?: number;
	[key: string]: unknown;
}

export interface WireToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

/** A text content part; `cache_control` marks an OpenRouter/Anthropic prompt-caching breakpoint. */
export interface TextPart {
	type: 'text';
	text: string;
	cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' };
}

/** An image content part: an `https:` URL or a `data:<mime>;base64,…` URL. */
export interface ImagePart {
	type: 'image_url';
	image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/**
 * A file content part (OpenAI and OpenRouter, e.g. a PDF): `file_data` is a
 * `data:<mime>;base64,…` URL, `filename` what the model is told the file is called.
 */
export interface FilePart {
	type: 'file';
	file: { filename?: string; file_data?: string; file_id?: string };
}

/** One part of a message's content. */
export type ContentPart = TextPart | ImagePart | FilePart;

export type ChatMessage =
	| { role: 'system'; content: string | ContentPart[] }
	| { role: 'user'; content: string | ContentPart[]; name?: string }
	| {
			role: 'assistant';
			/** `null` (never `""`) when the turn only calls tools. */
			content: string | null;
			tool_calls?: WireToolCall[];
			reasoning?: string;
			reasoning_details?: ReasoningDetail[];
	  }
	| { role: 'tool'; tool_call_id: string; content: string | Array<TextPart | ImagePart> };

export interface WireTool {
	type: 'function';
	function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean };
}

export type WireToolChoice =
	'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };

/** The body of a Chat Completions request. Only fields that were set are sent. */
export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	tools?: WireTool[];
	tool_choice?: WireToolChoice;
	parallel_tool_calls?: boolean;
	temperature?: number;
	max_tokens?: number;
	reasoning?: {
		effort?: 'minimal' | 'low' | 'medium' | 'high';
		max_tokens?: number;
		exclude?: boolean;
	};
	[key: string]: unknown;
}

export interface Usage {
	promptTokens: number;
	completionTokens: number;
	totalTokens: number;
	reasoningTokens?: number;
	cachedTokens?: number;
	cacheWriteTokens?: number;
	/** OpenRouter's `usage.cost`, in credits (USD). */
	cost?: number;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/**
 * A tool call: the one shape every layer uses, from the assembled stream to the loop's
 * pending calls, the driver's requests and the engine's actions. `toolCallId` is the id the
 * model gave it (on the wire: `tool_calls[].id` and `tool_call_id`).
 */
export interface ToolCall {
	toolCallId: string;
	name: string;
	arguments: Record<string, unknown>;
}

/** One assembled tool call. `error` is set, and `arguments` absent, when its JSON was broken. */
export interface AssembledToolCall extends Omit<ToolCall, 'arguments'> {
	argumentsText: string;
	arguments?: Record<string, unknown>;
	error?: string;
}

/** Parts of a model stream, a discriminated union on `type`. */
export type StreamPart =
	| { type: 'text-delta'; text: string }
	| { type: 'reasoning-delta'; text: string }
	| { type: 'reasoning-details'; details: ReasoningDetail[] }
	| {
			type: 'tool-call-delta';
			index: number;
			toolCallId?: string;
			name?: string;
			argumentsDelta?: string;
	  }
	| { type: 'tool-call'; toolCall: AssembledToolCall }
	| {
			type: 'finish';
			finishReason: FinishReason;
			rawFinishReason: string;
			usage?: Usage;
			model?: string;
	  }
	| { type: 'error'; error: Error };

/** A whole assistant turn, assembled from a stream. */
export interface AssistantTurn {
	text: string;
	reasoning: string;
	reasoningDetails: ReasoningDetail[];
	toolCalls: AssembledToolCall[];
	finishReason: FinishReason;
	rawFinishReason: string;
	usage?: Usage;
	/** The model that answered (OpenRouter may route to a fallback). */
	model?: string;
}
