import type { AssistantTurn, ChatRequest, StreamPart } from '../chat/types';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import type { AgentResult, AgentState } from './agent-state';
import { forwardStreamPart, type AgentEvent, type AgentEventListener } from './agent-event';
import type { AgentTool, ToolObservation } from '../tools/agent-tool';
import { applyModelTurn } from './apply-model-turn';
import { applyToolResults, type ToolCallResult } from './apply-tool-results';
import { createAgentState, type AgentInput } from './create-agent-state';
import { debugLines } from './debug-log';
import { nextAction, type ToolCallRequest } from './next-action';
import { redactSecrets } from '../chat/redact-secrets';
import { runWithConcurrency } from './run-with-concurrency';
import { abortAgent, abortReason, failAgent } from './stop-agent';
import { runTimeLimitSignal } from './time-limits/run-time-limit';
import { withToolTimeout } from './time-limits/with-tool-timeout';

/** Makes one model call and returns the assembled turn; `onPart` sees every stream part. */
export type CallModel = (
	request: ChatRequest,
	options: { signal?: AbortSignal; onPart?: (part: StreamPart) => void },
) => Promise<AssistantTurn>;

/** Options of the in-process driver. */
export interface RunAgentOptions {
	/** A state to resume (e.g. one persisted between steps); or give `input`. */
	state?: AgentState;
	/** What a new run starts from; its tools are those of `tools`. */
	input?: Omit<AgentInput, 'tools'>;
	/** The tool implementations, matched to the state's tools by name. */
	tools: AgentTool[];
	callModel: CallModel;
	signal?: AbortSignal;
	onEvent?: AgentEventListener;
	/** Called with every new state: persist it to resume later. */
	onState?: (state: AgentState) => void;
	/** How many tool calls of one turn run at once (default 4). */
	concurrency?: number;
	/** Emit `debug` events with `[DEBUG]` lines. */
	debug?: boolean;
	/** Values (API keys, header values) replaced by `[REDACTED]` in debug lines. */
	secrets?: string[];
	/** Time limit per tool call in ms: the call's signal aborts and the model reads a timeout observation. */
	toolTimeoutMs?: number;
	/** Time limit for the whole run in ms: the run stops as `aborted` ("exceeded its time limit"). */
	runTimeoutMs?: number;
}

/** A finished run: its last state and its result. */
export interface AgentRunOutcome {
	state: AgentState;
	result: AgentResult;
}

/**
 * The in-process driver: steps a state through model calls and tool runs until it is
 * done, running each turn's tools concurrently (results in call order).
 *
 * @throws {AgentStoppedError} when a limit stops the run with the "error" behaviour, the
 * forced final answer is empty, or `signal` aborts it (reason `aborted`).
 * @throws the model call's own error (e.g. the chat client's ApiCallError) when a model
 * call fails; the state passed to `onState` is then failed with `model-error`.
 * @throws {AgentConfigurationError} from `createAgentState` for a bad `input`, or when neither state nor input is given.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunOutcome> {
	const limit = runTimeLimitSignal(options.signal, options.runTimeoutMs);
	const tools = options.toolTimeoutMs ? options.tools.map((tool) => withToolTimeout(tool, options.toolTimeoutMs as number)) : options.tools;
	try {
		return await runAgentLoop({ ...options, tools, signal: limit.signal });
	} finally {
		limit.dispose();
	}
}

async function runAgentLoop(options: RunAgentOptions): Promise<AgentRunOutcome> {
	const { tools, callModel, signal } = options;
	const emit = (event: AgentEvent): void => options.onEvent?.(event);
	// Lines are built only when asked for: with debug off a step costs no string building.
	const debug = (line: () => string): void => {
		if (options.debug) emit({ type: 'debug', line: redactSecrets(line(), options.secrets) });
	};
	const byName = new Map(tools.map((tool) => [tool.name, tool]));
	const concurrency = options.concurrency ?? 4;

	let state = options.state ?? createAgentState({ ...requireInput(options.input), tools });
	const update = (next: AgentState): void => {
		state = next;
		options.onState?.(state);
	};
	if (options.debug) for (const line of debugLines.start(state)) debug(() => line);

	for (;;) {
		if (signal?.aborted) update(abortAgent(state, abortReason(signal)));
		const action = nextAction(state);
		switch (action.type) {
			case 'done':
				debug(() => debugLines.end(state));
				return { state, result: action.result };
			case 'failed':
				debug(() => debugLines.end(state));
				throw action.error;
			case 'call-model': {
				debug(() => debugLines.iteration(state, action.final));
				emit({ type: 'model-call-start', iteration: state.iterations + 1, final: action.final, request: action.request });
				let turn: AssistantTurn;
				try {
					turn = await callModel(action.request, { signal, onPart: (part) => forwardStreamPart(part, emit) });
				} catch (error) {
					if (signal?.aborted) {
						update(abortAgent(state, abortReason(signal)));
						continue;
					}
					update(failAgent(state, { code: 'model-error', message: (error as Error).message ?? String(error) }));
					debug(() => debugLines.end(state));
					throw error;
				}
				debug(() => debugLines.response(turn));
				emit({ type: 'model-call-end', iteration: state.iterations + 1, turn });
				const stepsBefore = state.steps.length;
				update(applyModelTurn(state, turn));
				reportRefused(state, stepsBefore, emit, debug);
				break;
			}
			case 'run-tools': {
				const iteration = state.iterations;
				const stepsBefore = state.steps.length;
				const results = await runWithConcurrency(action.calls, concurrency, async (call) => {
					debug(() => debugLines.toolStart(call));
					emit({ type: 'step-start', iteration, call });
					return runTool(byName.get(call.name), call, signal);
				});
				update(applyToolResults(state, results));
				for (const step of state.steps.slice(stepsBefore)) {
					const ran = results.some((result) => result.toolCallId === step.toolCallId);
					debug(() => (ran ? debugLines.toolEnd(step) : debugLines.refused(step)));
					emit({ type: 'step-end', step });
				}
				break;
			}
		}
	}
}

/** Runs one tool call; never throws. */
async function runTool(tool: AgentTool | undefined, call: ToolCallRequest, signal?: AbortSignal): Promise<ToolCallResult> {
	const started = performance.now();
	let observation: ToolObservation;
	if (!tool) {
		observation = { content: `Tool '${call.name}' has no implementation in this run.`, isError: true };
	} else {
		try {
			observation = await tool.invoke(call.arguments, { toolCallId: call.toolCallId, signal });
		} catch (error) {
			observation = { content: `Tool '${call.name}' failed: ${(error as Error)?.message ?? String(error)}`, isError: true };
		}
	}
	return { toolCallId: call.toolCallId, observation, durationMs: performance.now() - started };
}

/** Steps the loop answered itself (no tool ran) while applying a model turn. */
function reportRefused(state: AgentState, stepsBefore: number, emit: (event: AgentEvent) => void, debug: (line: () => string) => void): void {
	for (const step of state.steps.slice(stepsBefore)) {
		debug(() => debugLines.refused(step));
		emit({ type: 'step-end', step });
	}
}

function requireInput(input: RunAgentOptions['input']): Omit<AgentInput, 'tools'> {
	if (!input) throw new AgentConfigurationError('input', 'runAgent needs a state to resume or an input to start from.');
	return input;
}
