import { randomBytes } from 'node:crypto';
import type { Usage } from 'n8n-nodes-toolbridge';
import type { ResponsesCall } from './parse-responses-request';

/** The label of the agent's own tools in `mcp_call` items (they run on this server). */
export const TOOL_SERVER_LABEL = 'toolbridge';

/** A new id in OpenAI's style: `resp_…`, `msg_…`, `mcp_…` and 48 hex digits. */
export function newResponseId(prefix: 'resp' | 'msg' | 'mcp'): string {
	return `${prefix}_${randomBytes(24).toString('hex')}`;
}

/** The `output_text` content part of a message item. */
export interface OutputTextPart {
	type: 'output_text';
	text: string;
	annotations: [];
	logprobs: [];
}

/** An assistant `message` output item. */
export interface MessageItem {
	id: string;
	type: 'message';
	status: 'in_progress' | 'completed';
	role: 'assistant';
	/** `commentary`: text of a model call that went on to call tools; `final_answer`: the answer. */
	phase?: 'commentary' | 'final_answer';
	content: OutputTextPart[];
}

/** A hosted tool call: one of the agent's tools, run by this server (the client runs nothing). */
export interface McpCallItem {
	id: string;
	type: 'mcp_call';
	status: 'in_progress' | 'completed' | 'failed';
	server_label: string;
	name: string;
	arguments: string;
	output: string | null;
	error: string | null;
	approval_request_id: null;
}

export type OutputItem = MessageItem | McpCallItem;

/** An `output_text` part. */
export function outputTextPart(text: string): OutputTextPart {
	return { type: 'output_text', text, annotations: [], logprobs: [] };
}

/** OpenAI's Responses usage object from ours. */
export function toResponseUsage(usage: Usage): object {
	return {
		input_tokens: usage.promptTokens,
		input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
		output_tokens: usage.completionTokens,
		output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
		total_tokens: usage.totalTokens,
	};
}

/** What stays the same over one response's life: its id, creation time and request. */
export interface ResponseIdentity {
	id: string;
	createdAt: number;
	call: ResponsesCall;
}

/** A new response identity for `call`. */
export function newResponseIdentity(call: ResponsesCall): ResponseIdentity {
	return { id: newResponseId('resp'), createdAt: Math.floor(Date.now() / 1000), call };
}

/**
 * A `response` object with every field OpenAI's clients read; the sampling fields say what
 * this server does (the workflow decides them), `instructions` and `metadata` are echoed.
 */
export function responseObject(
	identity: ResponseIdentity,
	state: {
		status: 'in_progress' | 'completed' | 'failed';
		output: OutputItem[];
		usage?: Usage;
		error?: { code: string; message: string };
	},
): object {
	const { call } = identity;
	return {
		id: identity.id,
		object: 'response',
		created_at: identity.createdAt,
		status: state.status,
		background: false,
		completed_at: state.status === 'in_progress' ? null : Math.floor(Date.now() / 1000),
		error: state.error ?? null,
		incomplete_details: null,
		instructions: call.instructions,
		max_output_tokens: null,
		max_tool_calls: null,
		model: call.model,
		output: state.output,
		parallel_tool_calls: true,
		previous_response_id: call.previousResponseId ?? null,
		reasoning: { effort: null, summary: null },
		service_tier: 'default',
		store: call.store,
		temperature: null,
		text: { format: { type: 'text' }, verbosity: 'medium' },
		tool_choice: 'auto',
		tools: [],
		top_p: null,
		truncation: 'disabled',
		usage: state.usage ? toResponseUsage(state.usage) : null,
		user: null,
		metadata: call.metadata,
	};
}
