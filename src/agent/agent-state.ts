import type { ChatMessage, FinishReason, ToolCall, Usage } from '../chat/types';
import type { JsonSchema } from '../schema/json-schema';
import type { ToolAttachment } from '../tools/tool-attachment';
import type { ModelSettings } from './model-options';
import type {
	OutputAttempt,
	StructuredOutputConfig,
	StructuredOutputProgress,
} from './output-format/structured-output-config';

/** What happens when a limit (max iterations, repeated calls) stops the loop. */
export type LimitBehavior = 'error' | 'final-answer';

/** Which tool the model must or may call; `required` and `{ name }` apply to the first call only. */
export type AgentToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** The settings of one agent run: the model settings (`ModelSettings`) and the loop's own. Plain JSON. */
export interface AgentConfig extends ModelSettings {
	systemMessage?: string;
	/** How many model calls with tools may happen (default 20). */
	maxIterations: number;
	/** At a limit: fail with the steps attached, or make one last call without tools. */
	limitBehavior: LimitBehavior;
	/** The same tool with the same arguments this many times: the model is told; once more stops the loop. */
	repeatedCallLimit: number;
	toolChoice: AgentToolChoice;
	parallelToolCalls?: boolean;
	/**
	 * Send the images tools return to the model (as image parts after their tool results):
	 * `true` / `false` force it on or off; absent, the model family's row decides (OpenAI,
	 * Anthropic and Gemini models yes, unknown models no).
	 */
	imageInput?: boolean;
	/** Output format `json`: the answer must be JSON matching this (validated, one repair). */
	structuredOutput?: StructuredOutputConfig;
}

/** A tool as the state knows it: what the model is told. Its implementation lives outside the state. */
export interface AgentToolSpec {
	name: string;
	description: string;
	parameters: JsonSchema;
	/** The n8n node behind the tool, for engine actions. */
	sourceNodeName?: string;
}

/** One executed (or refused) tool call, as reported in `steps`. */
export interface AgentStep {
	/** The model call (1-based) that asked for this tool call. */
	iteration: number;
	toolCallId: string;
	tool: string;
	/** Parsed arguments; the raw text when they could not be parsed. */
	arguments: Record<string, unknown> | string;
	/** The text the model read. */
	result: string;
	/** The structured result, when the tool gave one. */
	data?: unknown;
	isError: boolean;
	durationMs: number;
}

/** A tool call from the model's last turn, waiting for its observation. */
export interface PendingToolCall extends ToolCall {
	argumentsText: string;
	/** True when the model's arguments were not a JSON object (`arguments` is then `{}`). */
	brokenArguments?: true;
	/**
	 * Set when the loop answers the call itself (unknown tool, broken arguments, repeated
	 * call, loop stopping) instead of running the tool.
	 */
	resolved?: { content: string; isError: true };
}

/**
 * Images tools returned, kept for a model that takes images, per tool call in call order;
 * the request shows each after its tool result. Bounded in total (oldest dropped).
 */
export type ToolImages = Array<{ toolCallId: string; images: ToolAttachment[] }>;

/** Why a run ended without an answer. */
export type AgentFailureCode =
	| 'max-iterations'
	| 'repeated-call'
	| 'aborted'
	| 'empty-answer'
	| 'model-error'
	| 'invalid-output';

/** A failed run, as data. */
export interface AgentFailure {
	code: AgentFailureCode;
	message: string;
}

/** A finished run. */
export interface AgentResult {
	output: string;
	steps: AgentStep[];
	usage: Usage;
	/** Model calls made, including a final call without tools. */
	iterations: number;
	/** The reasoning text of all turns, joined by blank lines. */
	reasoning: string;
	/** Why the loop ended: the model answered, or a limit forced a final answer. */
	stopReason: 'answer' | 'max-iterations' | 'repeated-call';
	/** Output format `json`: the parsed, validated answer (`output` holds its JSON text). */
	object?: unknown;
	/** The finish reason of the last model call. */
	finishReason?: FinishReason;
	/** The model that gave the answer, as the server reported it (a fallback, maybe). */
	model?: string;
	/** Output format `json`: answers rejected before the accepted one. */
	outputAttempts?: OutputAttempt[];
}

/**
 * Where the loop stands:
 * - `ready`: the next step is a model call with tools;
 * - `awaiting-tools`: the model asked for tools; their results are due;
 * - `final-call`: a limit was reached; the next step is one last model call without tools;
 * - `output-call`: output format `json`: the answer is due as constrained JSON (or a repair of it);
 * - `done` / `failed`: finished.
 */
export type AgentStatus =
	'ready' | 'awaiting-tools' | 'final-call' | 'output-call' | 'done' | 'failed';

/**
 * The whole state of one agent run. Plain JSON: `JSON.parse(JSON.stringify(state))`
 * gives an equal state, so a driver may persist it between steps (n8n keeps it in an
 * EngineRequest's metadata) and resume from the copy.
 */
export interface AgentState {
	version: 1;
	config: AgentConfig;
	tools: AgentToolSpec[];
	/** The conversation sent to the model: system, memory, user, then this run's turns. */
	messages: ChatMessage[];
	/** Index in `messages` of this run's user message: what is new for memory starts here. */
	turnStart: number;
	steps: AgentStep[];
	/** Images from tool results the model is shown (see {@link ToolImages}); absent when none. */
	toolImages?: ToolImages;
	usage: Usage;
	/** Model calls made so far. */
	iterations: number;
	/** Calls per `tool + canonical arguments` key. */
	callCounts: Record<string, number>;
	/** Keys the model has already been told about. */
	repeatWarnings: string[];
	status: AgentStatus;
	pendingToolCalls: PendingToolCall[];
	/** Set when a call of the pending turn broke the repeated-call limit: the loop stops once its results are in. */
	stopAfterTools?: { code: 'repeated-call'; message: string };
	/** Which limit moved the loop to `final-call`. */
	limitReached?: 'max-iterations' | 'repeated-call';
	/** Reasoning text per turn, in order. */
	reasoning: string[];
	result?: AgentResult;
	failure?: AgentFailure;
	/** Output format `json`, once the loop has answered. */
	structured?: StructuredOutputProgress;
	/** The model and finish reason of the latest model call. */
	lastTurn?: { model?: string; finishReason: FinishReason };
}
