import type { CallModel } from '../agent/call-model-step';
import { resolveChatTimeLimits, type ChatTimeLimits } from '../chat/chat-time-limits';
import type {
	AssembledToolCall,
	AssistantTurn,
	ChatRequest,
	StreamPart,
	WireToolChoice,
} from '../chat/types';
import { reasoningTextIn } from '../chat/chat-server';
import { mapFinishReason } from '../chat/map-finish-reason';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { argumentChecks } from '../errors/invalid-argument-error';
import { ChatAbortedError } from '../errors/chat-aborted-error';
import { ChatTimeoutError } from '../errors/chat-timeout-error';
import { langChainMessagesFromWire, langChainText } from './langchain-messages';

/** The parts of a LangChain chat model (any n8n chat-model sub-node's) this package calls. Duck-typed across @langchain/core copies. */
export interface LangChainChatModelLike {
	stream(
		messages: unknown[],
		options?: Record<string, unknown>,
	): Promise<AsyncIterable<LangChainMessageChunkLike>>;
	bindTools?(
		tools: unknown[],
		options?: Record<string, unknown>,
	): Pick<LangChainChatModelLike, 'stream'>;
	/** ChatOpenAI, ChatAnthropic, ChatGoogleGenerativeAI, ChatOllama … name the model here. */
	model?: unknown;
	modelName?: unknown;
	_llmType?: () => string;
}

/** An AIMessageChunk, as far as it is read here. */
export interface LangChainMessageChunkLike {
	content: unknown;
	additional_kwargs?: Record<string, unknown>;
	response_metadata?: Record<string, unknown>;
	tool_calls?: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
	invalid_tool_calls?: Array<{ id?: string; name?: string; args?: string; error?: string }>;
	tool_call_chunks?: Array<{ id?: string; name?: string; args?: string; index?: number }>;
	usage_metadata?: {
		input_tokens?: number;
		output_tokens?: number;
		total_tokens?: number;
		input_token_details?: { cache_read?: number; cache_creation?: number };
		output_token_details?: { reasoning?: number };
	};
	concat?(chunk: LangChainMessageChunkLike): LangChainMessageChunkLike;
}

/** Duck-typed check for a connected LangChain chat model. */
export function isLangChainChatModel(value: unknown): value is LangChainChatModelLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as LangChainChatModelLike).stream === 'function'
	);
}

/** The model id a LangChain chat model reports (for tool-schema shaping and the output), else its type. */
export function langChainModelName(model: LangChainChatModelLike): string {
	for (const candidate of [model.model, model.modelName])
		if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
	const type = typeof model._llmType === 'function' ? model._llmType() : undefined;
	return typeof type === 'string' && type !== ''
		? `${type} (connected model)`
		: 'connected chat model';
}

/**
 * A `callModel` over a connected LangChain chat model (n8n's OpenAI, Anthropic, Gemini,
 * Bedrock, Ollama … sub-nodes): the request's messages become LangChain messages (tool calls
 * and results keep their ids), its tools are bound in OpenAI's function format (every
 * LangChain chat model converts that format), the call streams, and the chunks are assembled
 * into one turn — text, reasoning, tool calls, usage, finish reason. The model's own settings
 * (temperature, max tokens, credential) apply; the request's sampling fields are not sent.
 * The model node's tracing callbacks run as n8n set them up, so each call shows in the Logs.
 *
 * Time limits as the built-in client's: `totalTimeoutMs` for the whole call,
 * `firstTokenTimeoutMs` until the first chunk, `stallTimeoutMs` between chunks after it.
 *
 * @throws {InvalidArgumentError} `INVALID_ARGUMENT` (at once) when `model` is not a LangChain chat model.
 * @throws {AgentConfigurationError} `tools` when tools are connected but the model cannot bind tools.
 * @throws {ChatTimeoutError} when a limit runs out; {ChatAbortedError} when the signal aborts.
 * @throws the model's own error otherwise.
 */
export function createLangChainModelCaller(
	model: LangChainChatModelLike,
	limits: Partial<ChatTimeLimits> = {},
): CallModel {
	const check = argumentChecks('createLangChainModelCaller');
	if (!isLangChainChatModel(model))
		check.fail(
			'model',
			'a LangChain chat model (an object with stream(), e.g. ChatOpenAI, ChatAnthropic)',
			model,
		);
	check.optionalObject(limits, 'limits');
	const resolved = resolveChatTimeLimits(limits);
	return async (request, { signal, onPart }) => {
		const runnable = bindRequestTools(model, request);
		const watch = new CallWatch(resolved, signal);
		try {
			const callOptions: Record<string, unknown> = { signal: watch.signal };
			if (request.response_format !== undefined)
				callOptions.response_format = request.response_format;
			const stream = await watch.race(
				runnable.stream(langChainMessagesFromWire(request.messages), callOptions),
			);
			let merged: LangChainMessageChunkLike | undefined;
			const iterator = stream[Symbol.asyncIterator]();
			for (;;) {
				const next = await watch.race(iterator.next());
				if (next.done) break;
				watch.progress();
				const chunk = next.value;
				for (const part of deltaParts(chunk)) onPart?.(part);
				merged =
					merged === undefined
						? chunk
						: typeof merged.concat === 'function'
							? merged.concat(chunk)
							: chunk;
			}
			const turn = turnFrom(merged);
			for (const call of turn.toolCalls) onPart?.({ type: 'tool-call', toolCall: call });
			onPart?.({
				type: 'finish',
				finishReason: turn.finishReason,
				rawFinishReason: turn.rawFinishReason,
				usage: turn.usage,
				model: turn.model,
			});
			return turn;
		} catch (error) {
			throw watch.translate(error);
		} finally {
			watch.dispose();
		}
	};
}

function bindRequestTools(
	model: LangChainChatModelLike,
	request: ChatRequest,
): Pick<LangChainChatModelLike, 'stream'> {
	if (!request.tools || request.tools.length === 0) return model;
	if (typeof model.bindTools !== 'function') {
		throw new AgentConfigurationError(
			'tools',
			`The connected chat model (${langChainModelName(model)}) cannot call tools (it has no bindTools). Connect a model that supports tool calling, or disconnect the tools.`,
		);
	}
	const options: Record<string, unknown> = {};
	const choice = langChainToolChoice(request.tool_choice);
	if (choice !== undefined) options.tool_choice = choice;
	if (request.parallel_tool_calls !== undefined)
		options.parallel_tool_calls = request.parallel_tool_calls;
	return model.bindTools(request.tools, options);
}

/** LangChain's provider-neutral tool choice: `any` (every provider maps it) for "required", a tool's name for a named tool. */
export function langChainToolChoice(choice: WireToolChoice | undefined): string | undefined {
	if (choice === undefined) return undefined;
	if (choice === 'required') return 'any';
	if (typeof choice === 'string') return choice;
	return choice.function.name;
}

/** Text and reasoning deltas of one chunk, for streaming to n8n's chat as they come. */
function deltaParts(chunk: LangChainMessageChunkLike): StreamPart[] {
	const parts: StreamPart[] = [];
	const reasoning = reasoningOf(chunk);
	if (reasoning !== '') parts.push({ type: 'reasoning-delta', text: reasoning });
	const text = langChainText(chunk.content);
	if (text !== '') parts.push({ type: 'text-delta', text });
	return parts;
}

/**
 * The assembled turn of a whole (concatenated) message. Tool calls without an id (some local
 * models) get one, so their results can be matched; tool calls whose arguments were not
 * JSON come back with `error`, as the built-in client reports them.
 */
export function turnFrom(message: LangChainMessageChunkLike | undefined): AssistantTurn {
	const toolCalls: AssembledToolCall[] = [];
	let generated = 0;
	const idOf = (id: string | undefined) =>
		typeof id === 'string' && id !== '' ? id : `call_${++generated}`;
	for (const call of message?.tool_calls ?? []) {
		toolCalls.push({
			toolCallId: idOf(call.id),
			name: call.name,
			argumentsText: JSON.stringify(call.args ?? {}),
			arguments: call.args ?? {},
		});
	}
	for (const call of message?.invalid_tool_calls ?? []) {
		toolCalls.push({
			toolCallId: idOf(call.id),
			name: call.name ?? '',
			argumentsText: call.args ?? '',
			error: call.error ?? 'The tool call arguments are not valid JSON.',
		});
	}
	const rawFinishReason = rawFinishReasonOf(message?.response_metadata);
	const turn: AssistantTurn = {
		text: langChainText(message?.content),
		reasoning: message ? reasoningOf(message) : '',
		reasoningDetails: [],
		toolCalls,
		finishReason: toolCalls.length > 0 ? 'tool-calls' : mapFinishReason(rawFinishReason),
		rawFinishReason,
	};
	const usage = message?.usage_metadata ?? usageInMetadata(message?.response_metadata);
	if (usage) {
		const promptTokens = usage.input_tokens ?? 0;
		const completionTokens = usage.output_tokens ?? 0;
		turn.usage = {
			promptTokens,
			completionTokens,
			totalTokens: usage.total_tokens ?? promptTokens + completionTokens,
		};
		if (usage.input_token_details?.cache_read)
			turn.usage.cachedTokens = usage.input_token_details.cache_read;
		if (usage.input_token_details?.cache_creation)
			turn.usage.cacheWriteTokens = usage.input_token_details.cache_creation;
		if (usage.output_token_details?.reasoning)
			turn.usage.reasoningTokens = usage.output_token_details.reasoning;
	}
	const model = message?.response_metadata?.model_name ?? message?.response_metadata?.model;
	if (typeof model === 'string' && model !== '') turn.model = model;
	return turn;
}

/**
 * Usage a model reports only in its response metadata: ChatGroq streams it as
 * `response_metadata.usage` (`input_tokens` …, from Groq's `x_groq.usage`), others keep the
 * provider's `usage` (`prompt_tokens` …) there.
 */
function usageInMetadata(
	metadata: Record<string, unknown> | undefined,
): LangChainMessageChunkLike['usage_metadata'] {
	const xGroq = metadata?.x_groq as { usage?: unknown } | undefined;
	for (const candidate of [metadata?.usage, xGroq?.usage]) {
		if (typeof candidate !== 'object' || candidate === null) continue;
		const usage = candidate as Record<string, unknown>;
		const input = numberOf(usage.input_tokens) ?? numberOf(usage.prompt_tokens);
		const output = numberOf(usage.output_tokens) ?? numberOf(usage.completion_tokens);
		if (input === undefined && output === undefined) continue;
		return {
			input_tokens: input ?? 0,
			output_tokens: output ?? 0,
			total_tokens: numberOf(usage.total_tokens) ?? (input ?? 0) + (output ?? 0),
		};
	}
	return undefined;
}

function numberOf(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Reasoning where LangChain providers put it: Anthropic `thinking` blocks, standard
 * `reasoning` blocks, OpenAI-compatible servers' reasoning kwargs (`reasoningTextIn`).
 */
function reasoningOf(message: LangChainMessageChunkLike): string {
	let reasoning = '';
	if (Array.isArray(message.content)) {
		for (const block of message.content as Array<Record<string, unknown>>) {
			if (block?.type === 'thinking' && typeof block.thinking === 'string')
				reasoning += block.thinking;
			else if (block?.type === 'reasoning' && typeof block.reasoning === 'string')
				reasoning += block.reasoning;
		}
	}
	return reasoning + reasoningTextIn(message.additional_kwargs);
}

function rawFinishReasonOf(metadata: Record<string, unknown> | undefined): string {
	for (const key of ['finish_reason', 'stop_reason', 'finishReason', 'done_reason']) {
		const value = metadata?.[key];
		if (typeof value === 'string' && value !== '') return value;
	}
	return 'stop';
}

/**
 * The time limits of one call: an abort controller fired by the caller's signal, the total
 * limit, and the first-token / stall limit (reset by every chunk). `race` makes a wait end
 * as soon as a limit runs out, even when the model ignores the signal.
 */
class CallWatch {
	private readonly controller = new AbortController();
	private readonly timers: Array<ReturnType<typeof setTimeout>> = [];
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	private failure: Error | undefined;
	private started = false;
	private readonly stopped: Promise<never>;
	private rejectStopped!: (error: Error) => void;
	private readonly onAbort = () => this.stop(new ChatAbortedError({ cause: this.outer?.reason }));

	constructor(
		private readonly limits: ChatTimeLimits,
		private readonly outer: AbortSignal | undefined,
	) {
		this.stopped = new Promise<never>((_resolve, reject) => (this.rejectStopped = reject));
		this.stopped.catch(() => undefined);
		if (outer?.aborted) this.onAbort();
		else outer?.addEventListener('abort', this.onAbort, { once: true });
		if (limits.totalTimeoutMs > 0)
			this.timers.push(
				setTimeout(
					() => this.stop(new ChatTimeoutError(limits.totalTimeoutMs, 'total')),
					limits.totalTimeoutMs,
				),
			);
		this.armIdle();
	}

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** A chunk arrived: the stall limit replaces the first-token limit. */
	progress(): void {
		this.started = true;
		this.armIdle();
	}

	race<T>(promise: Promise<T>): Promise<T> {
		return Promise.race([promise, this.stopped]);
	}

	/** The limit's error when a limit stopped the call (the model's AbortError says less), else the error itself. */
	translate(error: unknown): unknown {
		return this.failure ?? error;
	}

	dispose(): void {
		for (const timer of this.timers) clearTimeout(timer);
		if (this.idleTimer) clearTimeout(this.idleTimer);
		this.outer?.removeEventListener('abort', this.onAbort);
	}

	private armIdle(): void {
		if (this.idleTimer) clearTimeout(this.idleTimer);
		const limit = this.started ? this.limits.stallTimeoutMs : this.limits.firstTokenTimeoutMs;
		if (limit > 0)
			this.idleTimer = setTimeout(
				() => this.stop(new ChatTimeoutError(limit, this.started ? 'stall' : 'first-token')),
				limit,
			);
	}

	private stop(error: Error): void {
		if (this.failure) return;
		this.failure = error;
		this.controller.abort(error);
		this.rejectStopped(error);
	}
}
