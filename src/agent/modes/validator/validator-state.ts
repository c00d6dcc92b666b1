import type { ChatMessage, ToolCall, Usage } from '../../../chat/types';
import type { AgentToolSpec } from '../../agent-state';
import type { ModelSettings } from '../../model-options';

/** The settings of one validator run: its own, and the model settings the full loop has too. Plain JSON. */
export interface ValidatorConfig extends ModelSettings {
	systemMessage?: string;
	/** The one tool the model must call; absent: any connected tool (`tool_choice: "required"`). */
	toolName?: string;
	/** Model calls allowed before the run fails (default 3). */
	maxAttempts: number;
	/** Stop once the arguments pass: the tool is not run and there is no result. */
	validateOnly: boolean;
}

/** One model call of a validator run and what was wrong with its answer (nothing, for the accepted one). */
export interface ValidatorAttempt {
	attempt: number;
	/** The tool the model called, when it called one. */
	tool?: string;
	/** The arguments it sent (the raw text when they were not JSON). */
	arguments?: Record<string, unknown> | string;
	/** The exact texts sent back to the model; empty for the accepted attempt. */
	errors: string[];
}

/** The accepted tool call, waiting for (or past) its one run. */
export interface ValidatorCall extends ToolCall {
	sourceNodeName?: string;
}

/** A finished validator run. */
export interface ValidatorResult {
	tool: string;
	arguments: Record<string, unknown>;
	/** The tool's structured result (its output items' json), else its text; absent with "validate only". */
	result?: unknown;
	/** Model calls made. */
	attempts: number;
	attemptLog: ValidatorAttempt[];
	usage: Usage;
}

/** Why a validator run ended without a result. */
export type ValidatorFailureCode = 'attempts-exhausted' | 'tool-error' | 'aborted' | 'model-error';

/**
 * Where a validator run stands: `ready` (next: a model call that must call a tool),
 * `awaiting-tool` (the accepted call must run, once), `done` or `failed`.
 */
export type ValidatorStatus = 'ready' | 'awaiting-tool' | 'done' | 'failed';

/**
 * The whole state of a validator run ("the model fills the form, the node executes").
 * Plain JSON like the agent state, so a driver (in-process, or n8n's engine through
 * EngineRequest metadata) can persist it between steps.
 */
export interface ValidatorState {
	version: 1;
	kind: 'validator';
	config: ValidatorConfig;
	tools: AgentToolSpec[];
	messages: ChatMessage[];
	attempts: ValidatorAttempt[];
	usage: Usage;
	status: ValidatorStatus;
	call?: ValidatorCall;
	result?: ValidatorResult;
	failure?: { code: ValidatorFailureCode; message: string };
}
